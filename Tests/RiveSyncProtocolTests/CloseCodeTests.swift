import RiveSyncProtocol
import Testing

/// Which closes a client may reconnect after (PROTOCOL.md §12).
@Suite struct CloseCodeTests {
    @Test func closesThatWouldOnlyBeRepeatedAreFinal() {
        for code: CloseCode in [.protocolError, .unsupportedData, .invalidPayload, .policyViolation] {
            #expect(!CloseCode.allowsReconnect(afterClose: code.rawValue), "\(code)")
        }
    }

    @Test func everyOtherCloseMayPass() {
        for code: CloseCode in [.normal, .goingAway, .messageTooBig, .internalError] {
            #expect(CloseCode.allowsReconnect(afterClose: code.rawValue), "\(code)")
        }
        #expect(CloseCode.allowsReconnect(afterClose: nil), "a lost connection (no close frame)")
        #expect(CloseCode.allowsReconnect(afterClose: 4000), "a code this client does not know")
    }
}
