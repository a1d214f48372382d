import Foundation
import RiveSyncTestSupport
import Testing

/// bench/first_write.py (issue 14's first writes): its lean client frames as RFC 6455 says, and
/// a short run on the test build's daemon gives both clients' latency rows and the flood's.
struct FirstWriteHarnessTests {
    static let bench = DaemonProcess.packageRoot + "/bench"

    @Test func leanClientFramesAsTheRFCSays() async throws {
        let check = """
            import sys
            sys.path.insert(0, sys.argv[1])
            from lean_client import FrameReader, accept_key, frame
            # RFC 6455 §1.3's handshake and §5.7's masked "Hello".
            assert accept_key(b"dGhlIHNhbXBsZSBub25jZQ==") == b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
            assert frame(1, b"Hello", bytes.fromhex("37fa213d")) == bytes.fromhex("818537fa213d7f9f4d5158")
            assert frame(1, b"x" * 300, b"\\0\\0\\0\\0")[:8] == bytes.fromhex("81fe012c00000000")
            assert frame(2, b"y" * 70000, b"\\0\\0\\0\\0")[:10] == bytes.fromhex("82ff0000000000011170")
            # Server frames (unmasked), their headers fed a byte at a time: a fragmented text,
            # then 16- and 64-bit lengths.
            stream = (b"\\x01\\x03Hel" + b"\\x80\\x02lo" + b"\\x81\\x7e\\x01\\x00" + b"a" * 256
                      + b"\\x82\\x7f" + (70000).to_bytes(8, "big") + b"b" * 70000)
            reader, frames = FrameReader(), []
            for i in range(len(stream) - 70000):
                reader.feed(stream[i:i + 1])
                while (got := reader.next_frame()) is not None:
                    frames.append(got)
            assert reader.next_frame() is None
            reader.feed(stream[-70000:])
            frames.append(reader.next_frame())
            assert frames == [(False, 1, b"Hel"), (True, 0, b"lo"), (True, 1, b"a" * 256), (True, 2, b"b" * 70000)], frames[:2]
            assert reader.buffer == b""
            masked = FrameReader()
            masked.feed(b"\\x81\\x80\\0\\0\\0\\0")
            try:
                masked.next_frame()
                sys.exit("a masked server frame was read")
            except ValueError:
                pass
            print("framing ok")
            """
        let result = try await offThePool { try ChildProcess.run("/usr/bin/python3", ["-c", check, Self.bench]) }
        #expect(result.status == 0 && result.stdout == "framing ok\n", "\(result.output)")
    }

    @Test func measuresBothClientsAndTheFlood() async throws {
        let directory = URL(fileURLWithPath: DaemonProcess.binary()).deletingLastPathComponent().path
        let result = try await offThePool {
            try ChildProcess.run(
                "/usr/bin/python3",
                [
                    Self.bench + "/first_write.py", "--daemon", "test=\(directory)", "--samples", "5", "--idle-ms", "20", "--rate",
                    "200", "--seconds", "2",
                ])
        }
        #expect(result.status == 0, "\(result.output)")
        let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("| test |") }.map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let latencies = rows.filter { $0.count == 8 }
        #expect(latencies.map { $0[1] } == ["asyncio", "lean"], "\(result.stdout)")
        for row in latencies {
            let figures = row[2...6].compactMap(Double.init)
            #expect(figures.count == 5 && figures.allSatisfy { $0 > 0 }, "\(row)")
            // echo, ping, then the sets' p50 ≤ p99 ≤ max
            #expect(figures.count == 5 && figures[2] <= figures[3] && figures[3] <= figures[4], "\(row)")
        }
        let flood = rows.filter { $0.count == 3 }
        #expect(flood.count == 1, "\(result.stdout)")
        // 200 writes/s for 2 s: some advances, never more than 60 in a second (a loaded machine
        // may make fewer).
        for counts in flood.first.map({ [$0[1], $0[2]] }) ?? [] {
            let perSecond = counts.split(separator: " ").compactMap { Int($0) }
            #expect(perSecond.count == 2 && perSecond.allSatisfy { $0 <= 60 } && perSecond.reduce(0, +) > 0, "\(counts)")
        }
    }
}
