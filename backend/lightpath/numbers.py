"""Numbers in the server's sentences (recommendations, job summaries) written as the UI writes
them (frontend/src/lib/format/number.ts, formatDbm), so a rate or a power reads the same in both."""

import math

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

# Below this a rate reads as a mantissa times a power of ten; from it up as a plain decimal ("0.012"), as formatLossRate.
PLAIN_FROM = 0.01


def loss_rate_text(rate: float | None) -> str:
    """A loss rate (a fraction of packets) or a penalty (a sum of them): 5.4 times ten to the minus 4
    with a multiplication sign and a superscript exponent (never 5.4e-4), two significant digits, "0.012" from 1 % up, "0" for none, "unknown" without one."""
    if rate is None or not math.isfinite(rate):
        return "unknown"
    if rate == 0:
        return "0"
    if abs(rate) >= PLAIN_FROM:
        return f"{float(f'{rate:.2g}'):g}"
    # Formatting rounds the mantissa first (9.96e-5 -> "1.0e-04"), so the exponent matches it.
    mantissa, exponent = f"{rate:.1e}".split("e")
    return f"{mantissa} \N{MULTIPLICATION SIGN} 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def dbm_text(value: float | None) -> str:
    """An optical power as formatDbm writes it: one decimal with the true minus sign (U+2212, not
    the hyphen of "-7.9 dBm"; "0.0 dBm", never minus zero), "unknown" without one."""
    if value is None or not math.isfinite(value):
        return "unknown"
    text = f"{value:.1f}"
    if text == "-0.0":
        text = "0.0"
    return text.replace("-", "\N{MINUS SIGN}") + " dBm"
