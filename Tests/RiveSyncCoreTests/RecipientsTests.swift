import RiveSyncCore
import Testing

/// A frame's recipients: one held inline (no array), else a list, the same connections either way.
struct RecipientsTests {
    @Test func oneRecipientIsHeldInlineAndASecondMakesAList() {
        var recipients = Recipients(ConnectionID(7))
        guard case .one(7) = recipients.rawValues else { Issue.record("not inline: \(recipients.rawValues)"); return }
        #expect(Array(recipients) == [ConnectionID(7)])
        recipients.append(ConnectionID(3))
        guard case .list([7, 3]) = recipients.rawValues else { Issue.record("not a list: \(recipients.rawValues)"); return }
        #expect(Array(recipients) == [ConnectionID(7), ConnectionID(3)])
    }

    @Test func theFirstConnectionAddedToNoneIsHeldInline() {
        var recipients = Recipients()
        #expect(recipients.isEmpty)
        recipients.append(ConnectionID(2))
        guard case .one(2) = recipients.rawValues else { Issue.record("not inline: \(recipients.rawValues)"); return }
        #expect(recipients == [ConnectionID(2)])
    }

    @Test func recipientsAreEqualByTheirConnectionsWhateverTheirStorage() {
        #expect(Recipients(ConnectionID(1)) == Recipients([ConnectionID(1)]))
        #expect(Recipients(ConnectionID(1)) != Recipients([ConnectionID(1), ConnectionID(2)]))
        #expect(Recipients([ConnectionID(2), ConnectionID(1)]) != [ConnectionID(1), ConnectionID(2)])
        var reserved = Recipients()
        reserved.reserveCapacity(4)
        for id in 1...4 { reserved.append(ConnectionID(UInt64(id))) }
        #expect(Array(reserved) == [1, 2, 3, 4].map { ConnectionID($0) })
        guard case .list(let list) = reserved.rawValues else { Issue.record("not a list"); return }
        #expect(list == [1, 2, 3, 4])
    }
}
