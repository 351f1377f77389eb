# A one-shot mDNS query for a host name (RFC 6762 section 5.1, a "legacy unicast" query sent from an
# ordinary UDP port): the box announces itself as <box>.local (docs/hardware.md, "Provisioning"), and any
# mDNS responder (the box's zeroconf) answers such a query straight back to the port it came from. Only
# building the query and reading the answer live here (pure, MicroPython-compatible); the ESP32's link
# sends it and reads replies without blocking, so the main loop keeps scanning keys while it waits.

GROUP = ("224.0.0.251", 5353)
TYPE_A = 1
CLASS_IN = 1
UNICAST = 0x8000  # the question's "QU" bit: answer by unicast


def _labels(name):
    return [part.lower() for part in name.rstrip(".").split(".") if part]


def query(name, qid):
    """The query packet for the A record (IPv4 address) of ``name`` ("box1.local"), with id ``qid``."""
    out = bytearray(((qid >> 8) & 0xFF, qid & 0xFF, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0))  # one question
    for label in _labels(name):
        raw = label.encode()
        if not 0 < len(raw) < 64:
            raise ValueError("bad host name")
        out.append(len(raw))
        out += raw
    out += bytes((0, 0, TYPE_A, (UNICAST | CLASS_IN) >> 8, CLASS_IN))
    return bytes(out)


def _name(packet, i):
    """(the labels of the name at ``i``, lower case; the index after it), following compression."""
    labels = []
    end = None
    hops = 0
    while True:
        if i >= len(packet):
            raise ValueError("name runs off the packet")
        n = packet[i]
        if n == 0:
            return labels, (i + 1 if end is None else end)
        if n & 0xC0 == 0xC0:  # a pointer to a name earlier in the packet
            if i + 1 >= len(packet) or hops > 16:
                raise ValueError("bad name pointer")
            if end is None:
                end = i + 2
            i = ((n & 0x3F) << 8) | packet[i + 1]
            hops += 1
            continue
        labels.append(bytes(packet[i + 1 : i + 1 + n]).decode().lower())
        i += 1 + n


def answer(packet, name):
    """The IPv4 address ("192.168.1.20") an mDNS response gives for ``name``, or None (another name, a
    query, a malformed packet)."""
    try:
        if len(packet) < 12 or not packet[2] & 0x80:
            return None  # not a response
        questions = (packet[4] << 8) | packet[5]
        records = ((packet[6] << 8) | packet[7]) + ((packet[8] << 8) | packet[9]) + ((packet[10] << 8) | packet[11])
        i = 12
        for _ in range(questions):
            _, i = _name(packet, i)
            i += 4
        wanted = _labels(name)
        for _ in range(records):
            labels, i = _name(packet, i)
            if i + 10 > len(packet):
                return None
            kind = (packet[i] << 8) | packet[i + 1]
            klass = ((packet[i + 2] << 8) | packet[i + 3]) & 0x7FFF  # the top bit is "cache flush"
            size = (packet[i + 8] << 8) | packet[i + 9]
            i += 10
            if kind == TYPE_A and klass == CLASS_IN and size == 4 and labels == wanted and i + 4 <= len(packet):
                return ".".join([str(b) for b in packet[i : i + 4]])
            i += size
    except (ValueError, IndexError, UnicodeError):
        return None
    return None
