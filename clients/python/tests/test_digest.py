"""The digest function against PROTOCOL.md §7's worked example, byte for byte (the live
comparisons with the daemon are in the other tests)."""

from rivesync import digest

EXAMPLE_BYTES = bytes.fromhex(
    "00 00 00 00 00 00 00 04 6d 61 69 6e 00 00 00 00 00 00 00 0c 00 00 00 00 00 00 00 0c 00 00 00 00"
    "00 00 00 03 44 6f 74 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 02 6f 6e 03 00 00 00 00 00 00"
    "00 01 78 01 00 00 00 00 3f c0 00 00")


def test_the_documented_example():
    bindings = [("main", 12)]
    instances = {12: {"viewModel": "Dot", "name": "", "values": {"x": 1.5, "on": False}}}
    types = {"Dot": {"on": "boolean", "x": "number"}}
    assert digest.canonical_bytes(bindings, instances, types) == EXAMPLE_BYTES
    assert digest.digest(bindings, instances, types) == "af04bc23b370d9f9989a23cb3f6648bcbfaec8a0e924445965b6259d25c3003e"


def test_unreachable_instances_do_not_count_and_names_sort_by_utf8():
    types = {"Dot": {"on": "boolean", "x": "number", "ünïcode": "string", "z": "string"}}
    state = {"viewModel": "Dot", "name": "", "values": {"ünïcode": "ü", "z": "", "on": True, "x": 0}}
    alone = digest.digest([("main", 1)], {1: state}, types)
    assert digest.digest([("main", 1)], {1: state, 2: dict(state)}, types) == alone
    body = digest.canonical_bytes([("main", 1)], {1: state}, types)
    assert body.index(b"z") < body.index("ünïcode".encode())
