"""Blind's deal without a dealer: a two-party shuffle with commutative encryption.

Card t (0..49, both full sets) has a public value T_t = hash_to_element(sid, t).  Encrypting
with a secret exponent e is x -> x^e; layers commute, so removing one layer needs only its
owner's key (x -> x^(1/e mod Q)).

    host:   e_A, a permutation pA:    D1[i] = T_{pA(i)}^e_A          (sent)
    guest:  e_B, a permutation pB:    D2[j] = D1[pB(j)]^e_B          (sent)

Post j (the j-th non-camp square) holds card pA(pB(j)), which neither side knows: the host
does not know pB, the guest cannot see through e_A.  The deal is uniform if either side
shuffles honestly.

A flip of post j removes both layers of D2[j] only:
- the host's share is D2[j]^(1/e_A) = T^e_B; the guest finds T in its table {T_t^e_B};
- the guest's share is D1[pB(j)] = T^e_A (it knows pB, so no exponentiation); the host
  finds it in its table {T_t^e_A}, which is just D1 unshuffled.
Each side thus learns the card from the other's share, and announces it; a share that is
not a card, or a card already shown, is caught at once.  At the audit both reveal (e, p):
the decks are recomputed and every share is checked (host: share^e_A == D2[j]; guest:
share == D1[pB(j)]), so a tampered shuffle or a wrong flip is found with its ply.

The encryption exponents are short (256 bits, see group.py), so the deal costs 150 short
exponentiations in all; each flip costs the host one full-size exponentiation (1/e_A).
"""

from __future__ import annotations

import secrets

from junqi_core.fair.group import P, Q, hash_to_element, is_element
from junqi_core.pieces import JUNQI_KINDS, piece
from junqi_core.topology import BLIND_BOARD

CARDS: tuple[int, ...] = tuple(
    piece(k.kind, colour, face_down=True)
    for colour in (0, 1)
    for k in JUNQI_KINDS
    for _ in range(k.count)
)
POSTS: tuple[int, ...] = tuple(s for s in range(BLIND_BOARD.size) if s not in BLIND_BOARD.camps)
N_CARDS = len(CARDS)
assert N_CARDS == len(POSTS) == 50


class DeckError(ValueError):
    """A deck that is not 50 distinct group elements."""


def card_values(sid: str) -> list[int]:
    values = [hash_to_element("card", sid, t) for t in range(N_CARDS)]
    if len(set(values)) != N_CARDS:  # never happens; the check keeps lookups unambiguous
        raise DeckError("card values collide")
    return values


def random_permutation() -> list[int]:
    perm = list(range(N_CARDS))
    secrets.SystemRandom().shuffle(perm)
    return perm


def is_permutation(perm: object) -> bool:
    return (
        isinstance(perm, list)
        and len(perm) == N_CARDS
        and all(isinstance(i, int) and not isinstance(i, bool) for i in perm)
        and sorted(perm) == list(range(N_CARDS))
    )


def shuffle_step(deck: list[int], e: int, perm: list[int]) -> list[int]:
    """out[j] = deck[perm[j]]^e."""
    return [pow(deck[perm[j]], e, P) for j in range(N_CARDS)]


def check_deck(deck: list[int]) -> None:
    """50 distinct elements of the group (each already range- and subgroup-checked)."""
    if len(deck) != N_CARDS or not all(is_element(x) for x in deck):
        raise DeckError("a deck is 50 elements of the group")
    if len(set(deck)) != N_CARDS:
        raise DeckError("a deck holds the same card twice")


def host_share(d2_value: int, e: int) -> int:
    """The host's layer removed from one card: D2[j]^(1/e)."""
    return pow(d2_value, pow(e, -1, Q), P)


def table(values: list[int]) -> dict[int, int]:
    """value -> card index (the lookup that turns a share into a card)."""
    return {x: t for t, x in enumerate(values)}


def dealt_board(perm_host: list[int], perm_guest: list[int]) -> list[int]:
    """The true face-down board the two permutations make (for the referee at the audit)."""
    board = [0] * BLIND_BOARD.size
    for j, square in enumerate(POSTS):
        board[square] = CARDS[perm_host[perm_guest[j]]]
    return board
