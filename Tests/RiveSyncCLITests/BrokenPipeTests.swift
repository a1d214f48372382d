import Testing

@testable import RiveSyncTestSupport

/// The test process outlives a write to a child that exited without reading: it ignores
/// SIGPIPE from its start, so the write fails with EPIPE (signal 13 once ended a whole CI run).
@Suite struct BrokenPipeTests {
    @Test func aWriteToAChildThatExitedLeavesTheTestProcessRunning() throws {
        let child = try ChildProcess("sh", ["-c", "exit 3"], input: .pipe)
        #expect(try child.finish(within: 10).status == 3)
        for _ in 0..<4 { child.write(String(repeating: "x", count: 65_536)) }
        #expect(child.stdout.isEmpty, "the child wrote nothing and the writes after its exit went nowhere")
    }
}
