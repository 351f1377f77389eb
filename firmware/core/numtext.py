# Exact numbers on a handset without Decimal (MicroPython has none): a number is (m, e) meaning m * 10**e
# with m an int (arbitrary precision on MicroPython too). The handset sends numbers as text that the
# appliance's parse_number reads exactly: plain decimal when it fits protocol.MAX_NUMBER, else "m x 10^e".

from firmware import protocol

MAGS = ("", "k", "M", "B", "T")  # magnitude suffixes a handset offers, 10**(3*i)
MAG_POWER = {"k": 3, "M": 6, "B": 9, "T": 12}
MAX_EXPONENT = 99  # same bound as appliance.games.numbers.MAX_EXPONENT: |value| < 10**100


def parse(text):
    """(m, e) for the texts a handset produces or accepts: "-12.5", "3k", "2.5M", "6.02 x 10^23".

    Raises ValueError with a short reason (it fits an OLED line) for anything else.
    """
    if not isinstance(text, str):
        raise ValueError("number not text")
    s = text.strip()
    if not s or len(s) > protocol.MAX_NUMBER:
        raise ValueError("bad number")
    exp = 0
    if "x" in s:
        head, _, tail = s.partition("x")
        tail = tail.strip()
        if not tail.startswith("10^"):
            raise ValueError("bad exponent")
        exp = _int_text(tail[3:])
        s = head.strip()
    elif s[-1] in MAG_POWER:
        exp = MAG_POWER[s[-1]]
        s = s[:-1]
    neg = s.startswith("-")
    if neg:
        s = s[1:]
    whole, dot, frac = s.partition(".")
    if not (whole + frac) or not (whole + frac).isdigit() or "." in frac:
        raise ValueError("bad number")
    m = int(whole + frac)
    e = exp - len(frac)
    if neg:
        m = -m
    m, e = normal(m, e)
    check_bounds(m, e)
    return m, e


def _int_text(s):
    body = s[1:] if s[:1] in "+-" else s
    if not body or not body.isdigit() or len(body) > 3:
        raise ValueError("bad exponent")
    return int(s)


def normal(m, e):
    """Strip trailing zeros of m into e; zero is (0, 0)."""
    if m == 0:
        return 0, 0
    while m % 10 == 0:
        m //= 10
        e += 1
    return m, e


def digits(m):
    return len(str(abs(m)))


def adjusted(m, e):
    """The power of ten of the leading digit (Decimal.adjusted())."""
    return e + digits(m) - 1


def check_bounds(m, e):
    if m and abs(adjusted(m, e)) > MAX_EXPONENT:
        raise ValueError("number too big" if adjusted(m, e) > 0 else "number too small")


def plain(m, e):
    """Exact plain decimal text: no exponent, no trailing zeros, never "-0"."""
    m, e = normal(m, e)
    sign = "-" if m < 0 else ""
    ds = str(abs(m))
    if e >= 0:
        return sign + ds + "0" * e
    point = len(ds) + e
    if point > 0:
        return sign + ds[:point] + "." + ds[point:]
    return sign + "0." + "0" * (-point) + ds


def scientific(m, e):
    """Exact "d.ddd x 10^n" text (what parse_number reads as "3 x 10^6")."""
    m, e = normal(m, e)
    sign = "-" if m < 0 else ""
    ds = str(abs(m))
    head = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
    return sign + head + " x 10^" + str(adjusted(m, e))


def wire(m, e):
    """The text sent in an input: plain when it fits protocol.MAX_NUMBER, else scientific."""
    text = plain(m, e)
    if len(text) <= protocol.MAX_NUMBER:
        return text
    return scientific(m, e)


def compare(a, b):
    """-1, 0 or 1 as (m, e) pair a is below, equal to or above b; exact."""
    (ma, ea), (mb, eb) = a, b
    if ea > eb:
        ma *= 10 ** (ea - eb)
    elif eb > ea:
        mb *= 10 ** (eb - ea)
    return (ma > mb) - (ma < mb)


def short(m, e, width=10):
    """At most ``width`` (>= 7) characters for an OLED line: exact where it fits ("384400", "3.5M",
    "-12.25", "6.02e23"), else rounded and marked with a leading "~" ("~1.235B")."""
    m, e = normal(m, e)
    for text in _forms(m, e):
        if len(text) <= width:
            return text
    for keep in range(digits(m) - 1, 0, -1):
        rm, re = _round(m, e, keep)
        for text in _forms(rm, re):
            if len(text) + 1 <= width:
                return "~" + text
    return "~" + _sci(*_round(m, e, 1))


def _forms(m, e):
    """Exact texts of (m, e), the preferred first: plain below a million, else k/M/B/T, plain, 1e20."""
    plain_text = plain(m, e)
    adj = adjusted(m, e) if m else 0
    out = [plain_text] if adj < 6 else []
    if 3 <= adj < 3 * len(MAGS):
        i = adj // 3
        sign = "-" if m < 0 else ""
        out.append(sign + plain(abs(m), e - 3 * i) + MAGS[i])
    out.append(plain_text)
    out.append(_sci(m, e))
    return out


def _sci(m, e):
    sign = "-" if m < 0 else ""
    ds = str(abs(m))
    return sign + ds[0] + ("." + ds[1:] if len(ds) > 1 else "") + "e" + str(adjusted(m, e))


def _round(m, e, keep):
    """(m, e) rounded half up (away from zero) to ``keep`` significant digits."""
    drop = digits(m) - keep
    if drop <= 0:
        return m, e
    q = (abs(m) + 5 * 10 ** (drop - 1)) // 10**drop
    return normal(q if m > 0 else -q, e + drop)


def grouped(text):
    """Thousands separators for the whole part of a plain decimal text: "3200000" -> "3,200,000"."""
    sign = "-" if text.startswith("-") else ""
    body = text[len(sign) :]
    whole, dot, frac = body.partition(".")
    out = ""
    while len(whole) > 3:
        out = "," + whole[-3:] + out
        whole = whole[:-3]
    return sign + whole + out + dot + frac
