# The first input seq of a boot, shared by the ports: one block of SEQ_BLOCK seqs per boot, kept in a
# small file (one flash write a boot), so a rebooted handset never repeats a seq the appliance saw.

from firmware import protocol

SEQ_BLOCK = 1000000


def next_seq_block(path):
    """This boot's first seq; the file then holds the next boot's."""
    try:
        with open(path) as f:
            start = int(f.read().strip() or "0")
    except (OSError, ValueError):
        start = 0
    nxt = (start + SEQ_BLOCK) % (protocol.MAX_SEQ - SEQ_BLOCK)
    with open(path, "w") as f:
        f.write(str(nxt))
    return start
