"""Validates configurations against config/rivesyncd.conf.schema.json with an independent
JSON Schema implementation (jsonschema, draft 2020-12). Reads a JSON array of documents on
stdin; prints a JSON array with, for each, null (valid) or the first validation error."""
import json
import sys

import jsonschema


def main():
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    verdicts = []
    for document in json.load(sys.stdin):
        error = jsonschema.exceptions.best_match(validator.iter_errors(document))
        verdicts.append(None if error is None else "%s: %s" % ("/".join(map(str, error.absolute_path)), error.message))
    print(json.dumps(verdicts))


main()
