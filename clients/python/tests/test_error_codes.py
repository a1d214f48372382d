"""The client knows every error code of the protocol, and only those: its families of errors
(rivesync.errors) cover the ``errorCode`` enum of protocol/schemas/common.schema.json, which
the daemon's own tests hold to PROTOCOL.md §13 and to the daemon."""

import json
import os

from rivesync import errors

COMMON = os.path.join(os.path.dirname(__file__), "..", "..", "..", "protocol", "schemas", "common.schema.json")


def test_the_error_families_cover_the_protocols_codes_both_ways():
    with open(COMMON) as handle:
        documented = set(json.load(handle)["$defs"]["errorCode"]["enum"])
    known = set(errors._CLASS_BY_CODE)
    assert documented - known == set(), f"codes the client has no family for: {sorted(documented - known)}"
    assert known - documented == set(), f"codes the client knows but the protocol has not: {sorted(known - documented)}"
    listed = [code for codes in errors._FAMILIES.values() for code in codes]
    assert len(listed) == len(set(listed)), "a code in two families"
