"""Theme test, process 2: writes the shared global Theme's background.

Usage: /usr/bin/python3 theme_writer.py ws://127.0.0.1:PORT/ '#AARRGGBB'

Checks that the published `theme` is the instance bound in `character`'s Theme slot, sets
target `theme` path `background` to the color and waits for its ack. Exit 0 on the ack.
"""
import sys

from theme_common import Failure, run, shared_theme_instance


async def main(client):
    color = sys.argv[2]
    await shared_theme_instance(client)
    ack = await client.request({"type": "set", "target": "theme", "path": "background", "value": color}, "ack")
    if ack["target"] != "theme" or not isinstance(ack.get("seq"), int):
        raise Failure(f"ack: {ack}")
    print(f"writer: set background {color}, acked in theme batch {ack['seq']}", flush=True)


if __name__ == "__main__":
    run(main)
