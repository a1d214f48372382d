"""Theme test, process 1: subscribes to the shared global Theme and waits for a write.

Usage: /usr/bin/python3 theme_subscriber.py ws://127.0.0.1:PORT/ '#AARRGGBB'

Subscribes to target `character` path `@Theme/background` and to the whole target `theme`,
prints `ready`, then expects the very next batch of each target to carry the write of the
color (made by another process, theme_writer.py) to the shared Theme instance. Exit 0 when
both batches show it and a `get` reads it back.
"""
import sys

from theme_common import Failure, run, shared_theme_instance


async def main(client):
    color = sys.argv[2]
    theme = await shared_theme_instance(client)
    path_snapshot = await client.request(
        {"type": "subscribe", "target": "character", "paths": ["@Theme/background"]}, "snapshot")
    if path_snapshot["values"].get("@Theme/background") == color:
        raise Failure(f"the background is already {color}; the test needs a change")
    theme_snapshot = await client.request({"type": "subscribe", "target": "theme"}, "snapshot")
    print("ready", flush=True)

    seen = {}
    while len(seen) < 2:
        batch = await client.next_batch("the theme write")
        if batch["target"] in seen:
            raise Failure(f"a second batch of {batch['target']} before the other target's: {batch}")
        seen[batch["target"]] = batch
    character, published = seen.get("character"), seen.get("theme")
    if character is None or published is None:
        raise Failure(f"expected one batch of character and one of theme, got {list(seen)}")
    if published["seq"] != theme_snapshot["seq"] + 1:
        raise Failure(f"theme batch seq {published['seq']} is not the next after the snapshot's {theme_snapshot['seq']}")
    if character["seq"] <= path_snapshot["seq"]:
        raise Failure(f"character batch seq {character['seq']} is not after the snapshot's {path_snapshot['seq']}")
    expected = [{"op": "set", "instance": theme, "property": "background", "value": color}]
    for batch, path in ((character, "@Theme/background"), (published, "background")):
        effects = [{k: e.get(k) for k in ("op", "instance", "property", "value")} for e in batch["effects"]]
        if effects != expected or batch["effects"][0]["paths"] != [path]:
            raise Failure(f"batch of {batch['target']} should be the write at '{path}': {batch}")
    value = await client.request({"type": "get", "target": "character", "path": "@Theme/background"}, "value")
    if value["value"] != color:
        raise Failure(f"get @Theme/background = {value['value']}, expected {color}")
    print(f"subscriber: saw {color} in character batch {character['seq']} and theme batch {published['seq']}", flush=True)


if __name__ == "__main__":
    run(main)
