"""The fair-play building blocks: group, hash, commitments, oblivious transfer, the deal."""

from __future__ import annotations

import random

import pytest

from junqi_core.fair import combat, ot
from junqi_core.fair.commit import (
    commit_layout,
    layout_root,
    new_salts,
    opening_errors,
    square_commitment,
)
from junqi_core.fair.deal import (
    CARDS,
    N_CARDS,
    POSTS,
    DeckError,
    card_values,
    check_deck,
    dealt_board,
    host_share,
    shuffle_step,
)
from junqi_core.fair.group import (
    EXPONENT_BITS,
    G,
    GroupError,
    P,
    Q,
    digest,
    element_from_hex,
    element_hex,
    hash_to_element,
    is_element,
    legendre,
    random_exponent,
)
from junqi_core.pieces import (
    ARMY_GENERAL,
    ATTACKER_WINS,
    BOTH_REMOVED,
    DEFENDER_WINS,
    ENGINEER,
    FIELD_MARSHAL,
    FLAG,
    G_FLAG,
    LANDMINE,
    MINE,
    PLANE,
    SPY,
)
from junqi_core.rules import ClassicPosition, GunjinPosition
from tests.helpers import make_position

SID = "ab" * 32


def _pi_bits(bits: int) -> int:
    """floor(pi * 2^bits), by Machin's formula."""

    def arctan_inv(x: int) -> int:
        total = term = (1 << (bits + 16)) // x
        n, sign = 1, -1
        while term:
            term //= x * x
            total += sign * (term // (2 * n + 1))
            sign, n = -sign, n + 1
        return total

    return (4 * (4 * arctan_inv(5) - arctan_inv(239))) >> 16


def test_the_prime_is_rfc_3526_group_14():
    # RFC 3526 section 3: p = 2^2048 - 2^1984 - 1 + 2^64 * ( [2^1918 pi] + 124476 )
    rfc = 2**2048 - 2**1984 - 1 + 2**64 * (_pi_bits(1918) + 124476)
    assert rfc == P
    assert Q == (P - 1) // 2 and P % 8 == 7
    assert pow(G, Q, P) == 1  # 2 generates the subgroup of order Q (Q is prime)
    assert pow(3, P - 1, P) == 1 and pow(3, Q - 1, Q) == 1  # Fermat, as a sanity check


def test_legendre_symbol_is_the_subgroup_test():
    rng = random.Random(1)
    for _ in range(6):
        x = rng.randrange(2, P - 1)
        assert (legendre(x) == 1) == (pow(x, Q, P) == 1)
        assert is_element(x) == (pow(x, Q, P) == 1)
    assert legendre(P - 1) == -1  # -1 is a non-residue for P = 3 mod 4


@pytest.mark.parametrize("bad", [0, 1, P - 1, P, P + 4, 3])
def test_elements_outside_the_subgroup_are_refused(bad):
    text = format(bad, "0512x")
    if len(text) != 512 or not is_element(bad):
        with pytest.raises(GroupError):
            element_from_hex(text)


def test_element_encoding_is_canonical():
    x = pow(G, 12345, P)
    assert element_from_hex(element_hex(x)) == x
    for text in (element_hex(x).upper(), element_hex(x)[1:], "0x" + element_hex(x)[2:], 5, None):
        with pytest.raises(GroupError):
            element_from_hex(text)


def test_exponents_and_hash():
    e = random_exponent()
    assert 0 < e < 1 << EXPONENT_BITS
    assert digest("a", b"x") != digest("b", b"x")  # the label separates uses
    assert digest("a", "xy", "z") != digest("a", "x", "yz")  # parts are length-prefixed
    assert digest("a", b"1") != digest("a", "1") != digest("a", 1)  # and typed
    x = hash_to_element("card", SID, 3)
    assert is_element(x) and x == hash_to_element("card", SID, 3)


def test_commitments_bind_each_square():
    squares = ["a1", "b1", "c1"]
    layout = {"a1": "N", "b1": "F", "c1": "E"}
    salts = new_salts(squares)
    listed = commit_layout(SID, 0, squares, layout, salts)
    assert len(set(listed)) == 3 and len(layout_root(SID, 0, listed)) == 64
    assert opening_errors(SID, 0, squares, listed, layout, salts) is None
    assert opening_errors(SID, 0, squares, listed, {**layout, "a1": "E", "c1": "N"}, salts) == "a1"
    assert opening_errors(SID, 1, squares, listed, layout, salts) == "a1"  # another seat
    assert square_commitment(SID, 0, "b1", "F", salts["b1"]) == listed[1]


def test_oblivious_transfer_gives_exactly_the_chosen_row():
    n = 13
    rows = [random.Random(i).randrange(1, 8) for i in range(n)]
    a, big_a = ot.new_key()
    for choice in (0, 5, 12):
        b, big_b = ot.choose(big_a, choice)
        ciphers = ot.encrypt_rows(SID, "7/up", a, big_a, big_b, rows)
        assert ot.decrypt_row(SID, "7/up", b, big_a, big_b, ciphers, choice) == rows[choice]
        assert ot.check_choice(b, big_a, big_b, choice)
        assert not ot.check_choice(b, big_a, big_b, choice + 1 if choice < 12 else 0)
        for other in {(choice + 1) % n, (choice + 7) % n}:  # the key opens no other row
            assert ot.decrypt_row(SID, "7/up", b, big_a, big_b, ciphers, other) is None
        # Bound to the session and the action: the same values elsewhere open nothing.
        assert ot.decrypt_row(SID, "8/up", b, big_a, big_b, ciphers, choice) is None


def test_combat_rows():
    assert combat.row(ClassicPosition, ENGINEER, LANDMINE, LANDMINE) == ATTACKER_WINS
    assert combat.row(ClassicPosition, FIELD_MARSHAL, FLAG, FLAG) == ATTACKER_WINS | 4
    assert combat.row(ClassicPosition, LANDMINE, ENGINEER, ENGINEER) == 0  # a mine never attacks
    assert combat.row(GunjinPosition, SPY, ARMY_GENERAL, ARMY_GENERAL) == ATTACKER_WINS
    assert combat.row(GunjinPosition, ARMY_GENERAL, G_FLAG, G_FLAG) == ATTACKER_WINS  # no flag bit
    assert combat.row(GunjinPosition, PLANE, MINE, G_FLAG) == ATTACKER_WINS
    assert combat.row(GunjinPosition, ARMY_GENERAL, MINE, G_FLAG) == BOTH_REMOVED
    # A Gunjin flag fights with the piece behind it (the defender knows both).
    position = make_position("gunjin", "Fb3 Ab2 sb4")
    assert combat.defender_index(position, position.spec.square("b3")) == ARMY_GENERAL
    alone = make_position("gunjin", "Fb3 sb4")
    assert combat.defender_index(alone, alone.spec.square("b3")) == G_FLAG
    assert DEFENDER_WINS not in combat.possible_as_defender(ClassicPosition, LANDMINE, LANDMINE)
    assert ATTACKER_WINS | 4 not in combat.possible_as_defender(ClassicPosition, ENGINEER, ENGINEER)


def test_the_deal_and_flips():
    values = card_values(SID)
    assert len(set(values)) == N_CARDS == len(POSTS)
    rng = random.Random(3)
    perm_a, perm_b = rng.sample(range(50), 50), rng.sample(range(50), 50)
    e_a, e_b = random_exponent(), random_exponent()
    d1 = shuffle_step(values, e_a, perm_a)
    d2 = shuffle_step(d1, e_b, perm_b)
    check_deck(d1)
    check_deck(d2)
    with pytest.raises(DeckError):
        check_deck(d1[:49] + d1[:1])
    host_table = {x: perm_a[i] for i, x in enumerate(d1)}
    board = dealt_board(perm_a, perm_b)
    for j in (0, 49):
        truth = perm_a[perm_b[j]]
        assert board[POSTS[j]] == CARDS[truth]
        share = host_share(d2[j], e_a)
        assert share == pow(values[truth], e_b, P)  # the guest finds it in its table
        assert host_table[d1[perm_b[j]]] == truth  # the host reads the guest's share
        assert pow(share, e_a, P) == d2[j]  # the audit's check
