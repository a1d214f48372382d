"""Follows `wrong_node` with the Python client (protocol/CLUSTER.md §6.3): run by
ClusterShardTests with the URL of a node that does not serve target `lobby2`. Connecting there
directly raises WrongNode naming the shard and its nodes; `Worker.connect_serving` ends on one
of them, where a set is acknowledged. Prints `followed <url>` and exits 0, else exits 1."""

import asyncio
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "clients", "python"))

import rivesync  # noqa: E402


async def main(url):
    async with await rivesync.Worker.connect(url) as direct:
        try:
            await direct.request({"type": "digest", "target": "lobby2"})
            print("no wrong_node from the node of the other shard")
            return 1
        except rivesync.WrongNode as wrong:
            if wrong.shard != "s2" or not wrong.nodes:
                print(f"wrong_node without its shard or nodes: {wrong.details}")
                return 1
    worker = await rivesync.Worker.connect_serving(url, target="lobby2")
    try:
        followed = worker.session.url
        if followed == url:
            print("connect_serving stayed on the node of the other shard")
            return 1
        reply = await worker.request({"type": "set", "target": "lobby2", "path": "title", "value": "followed"})
        if reply.get("type") != "ack":
            print(f"the set was not acked: {reply}")
            return 1
        print(f"followed {followed}")
        return 0
    finally:
        await worker.close()


sys.exit(asyncio.run(main(sys.argv[1])))
