"""Generators of key files in their real layouts (DER bodies, OpenSSH, PGP armour, PuTTY PPK) and of BIP39
seed phrases, from random bytes: the structure is the documented one, the key material is noise."""

from __future__ import annotations

import base64
import functools
from pathlib import Path

from .gen import B64, HEX, Gen

_WORDS = Path(__file__).resolve().parents[2] / "palace" / "memory" / "secrets" / "bip39_english.txt"


def _der_length(n: int) -> bytes:
    return bytes([0x82, n >> 8, n & 0xFF]) if n > 255 else (bytes([n]) if n < 128 else bytes([0x81, n]))


def der_private_key(g: Gen, size: int, pkcs8: bool = False) -> bytes:
    """A DER RSA private key of about size bytes: SEQUENCE { INTEGER 0, INTEGER n, ... } (PKCS#1), or wrapped
    in a PKCS#8 PrivateKeyInfo."""
    body = b"\x02\x01\x00\x02\x82\x01\x01\x00" + g.rng.randbytes(size)
    inner = b"\x30" + _der_length(len(body)) + body
    if not pkcs8:
        return inner
    algorithm = bytes.fromhex("300d06092a864886f70d0101010500")
    wrapped = b"\x02\x01\x00" + algorithm + b"\x04" + _der_length(len(inner)) + inner
    return b"\x30" + _der_length(len(wrapped)) + wrapped


def pem_lines(data: bytes, width: int = 64) -> list[str]:
    """data in base64, cut into lines of width characters."""
    text = base64.b64encode(data).decode()
    return [text[i : i + width] for i in range(0, len(text), width)]


def openssh_private_key(g: Gen) -> str:
    """An unencrypted OpenSSH private key file (openssh-key-v1, 70-character lines)."""
    data = b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
    data += g.rng.randbytes(380)
    lines = pem_lines(data, 70)
    return "\n".join(["-----BEGIN OPENSSH PRIVATE KEY-----", *lines, "-----END OPENSSH PRIVATE KEY-----"])


def pgp_private_block(g: Gen) -> tuple[str, str]:
    """An armoured PGP secret key block, and its base64 body."""
    data = b"\x95\x03\xc6\x04" + g.rng.randbytes(900)
    lines = pem_lines(data)
    crc = "=" + base64.b64encode(g.rng.randbytes(3)).decode()
    block = "\n".join(["-----BEGIN PGP PRIVATE KEY BLOCK-----", "", *lines, crc, "-----END PGP PRIVATE KEY BLOCK-----"])
    return block, "\n".join(lines)


def ppk_file(g: Gen) -> tuple[str, str]:
    """A PuTTY PPK version 3 file, and its private lines."""
    public = pem_lines(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + g.rng.randbytes(32))
    private = pem_lines(b"\x00\x00\x00\x20" + g.rng.randbytes(32))
    text = "\n".join(
        [
            "PuTTY-User-Key-File-3: ssh-ed25519",
            "Encryption: none",
            "Comment: eddsa-key-20250101",
            f"Public-Lines: {len(public)}",
            *public,
            f"Private-Lines: {len(private)}",
            *private,
            f"Private-MAC: {g.chars(HEX, 64)}",
        ]
    )
    return text, "\n".join(private)


@functools.cache
def _bip39() -> tuple[str, ...]:
    return tuple(w for w in _WORDS.read_text(encoding="utf-8").splitlines() if w and not w.startswith("#"))


def seed_words(g: Gen, n: int) -> str:
    """n words drawn from the BIP39 English list, space-separated (the checksum is not computed)."""
    words = _bip39()
    return " ".join(g.rng.choice(words) for _ in range(n))


def b64_line(g: Gen, n: int) -> str:
    """n random standard base64 characters."""
    return g.chars(B64, n)
