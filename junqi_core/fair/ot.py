"""1-out-of-n oblivious transfer: Chou and Orlandi's "simplest OT", generalised to n rows.

The sender holds rows r_0 .. r_{n-1}; the receiver holds an index c.  The receiver learns
r_c and nothing else; the sender learns nothing about c.

    sender:    a random, A = g^a                      (published before the combat)
    receiver:  b random, B = g^b * A^c                (B alone hides c completely)
    sender:    k_i = H(sid, ctx, A, B, i, (B * A^-i)^a),  E_i = (r_i, 0 x 15) XOR k_i[:16]
    receiver:  k_c = H(sid, ctx, A, B, c, A^b)        ((B * A^-c)^a = g^ab = A^b)

The sender computes the n keys with B^a, A^a = g^(a*a) (base 2, a 512-bit exponent: about
a third of a general exponentiation) and n multiplications by (A^a)^-1.  The fifteen zero
bytes let the receiver see a row that was not made for it.

At the audit the receiver reveals b.  That settles both sides' honesty about everything
the transfer decided: the receiver's index (B == g^b * A^c must hold for its real piece)
and the row it received (E_c must open under H(.., A^b) to the row the opened pieces give).
Rows the receiver did not choose are never seen by anyone and decide nothing.
"""

from __future__ import annotations

from junqi_core.fair.group import G, P, digest, random_exponent

ROW_BYTES = 16
CIPHER_HEX = 2 * ROW_BYTES


def new_key() -> tuple[int, int]:
    """A sender key (a, A = g^a)."""
    a = random_exponent()
    return a, pow(G, a, P)


def choose(sender_key: int, choice: int) -> tuple[int, int]:
    """The receiver's (b, B = g^b * A^choice)."""
    b = random_exponent()
    return b, pow(G, b, P) * pow(sender_key, choice, P) % P


def _pad(sid: str, ctx: str, big_a: int, big_b: int, i: int, shared: int) -> bytes:
    return digest("ot/pad", sid, ctx, big_a, big_b, i, shared)[:ROW_BYTES]


def _xor(data: bytes, pad: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(data, pad, strict=True))


def _shared_values(a: int, big_b: int, n: int) -> list[int]:
    """(B * A^-i)^a for i in 0..n-1, for the sender's own key (A = g^a, so A^a = g^(a*a))."""
    step = pow(pow(G, a * a, P), -1, P)
    value = pow(big_b, a, P)
    out = []
    for _ in range(n):
        out.append(value)
        value = value * step % P
    return out


def encrypt_rows(sid: str, ctx: str, a: int, big_a: int, big_b: int, rows: list[int]) -> list[str]:
    """The sender's ciphertexts, one per row (each row is one byte)."""
    shared = _shared_values(a, big_b, len(rows))
    return [
        _xor(bytes([row]) + bytes(ROW_BYTES - 1), _pad(sid, ctx, big_a, big_b, i, k)).hex()
        for i, (row, k) in enumerate(zip(rows, shared, strict=True))
    ]


def _open(cipher: str, pad: bytes) -> int | None:
    plain = _xor(bytes.fromhex(cipher), pad)
    return plain[0] if not any(plain[1:]) else None


def decrypt_row(
    sid: str, ctx: str, b: int, big_a: int, big_b: int, ciphers: list[str], choice: int
) -> int | None:
    """The receiver's row, or None when the ciphertext was not made with its key."""
    shared = pow(big_a, b, P)
    return _open(ciphers[choice], _pad(sid, ctx, big_a, big_b, choice, shared))


def check_choice(b: int, big_a: int, big_b: int, choice: int) -> bool:
    """Audit: whether the receiver's B was made for index `choice` with secret b."""
    return pow(G, b, P) * pow(big_a, choice, P) % P == big_b
