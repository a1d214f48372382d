import Testing

@testable import RiveSyncTransport

/// The service thread's table of sessions against a `Dictionary` doing the same inserts and
/// removals: every id it held, holds and never held is found or not found alike.
@Suite struct SessionTableTests {
    static func session(_ id: SessionID) -> ServerSession {
        ServerSession(id: id, wsi: OpaquePointer(bitPattern: 0x10)!, stats: SessionStats(), maxMessageBytes: 16)
    }

    /// A loop's ids (`index + 1`, then every `threads`-th), opened and closed in a scrambled
    /// order so that probe runs form, wrap and are broken by removals as the table grows.
    @Test(arguments: [(index: 0, threads: 1), (index: 2, threads: 3), (index: 5, threads: 8)])
    func agreesWithADictionary(loop: (index: Int, threads: Int)) {
        var table = SessionTable()
        var reference: [SessionID: ServerSession] = [:]
        var random: UInt64 = 0x2545_F491_4F6C_DD1D
        func roll(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(random >> 33) % bound
        }
        let ids = (0..<600).map { SessionID(loop.index + 1 + $0 * loop.threads) }
        for (step, id) in ids.enumerated() {
            let session = Self.session(id)
            table.insert(session)
            reference[id] = session
            // Closes about two sessions of every three opened, any of those still open.
            if step % 3 != 0, let closing = reference.keys.sorted().dropFirst(roll(reference.count)).first {
                table.remove(closing)
                reference[closing] = nil
            }
            if step % 50 == 0 {
                for known in ids.prefix(step + 1) { #expect(table[known] === reference[known]) }
            }
        }
        #expect(table.count == reference.count && !table.isEmpty)
        for id in ids { #expect(table[id] === reference[id]) }
        #expect(table[ids.last! + SessionID(loop.threads)] == nil)
        #expect(Set(table.all.map(\.id)) == Set(reference.keys))
        for id in reference.keys { table.remove(id) }
        table.remove(ids[0])
        #expect(table.isEmpty && table.all.isEmpty && ids.allSatisfy { table[$0] == nil })
    }
}
