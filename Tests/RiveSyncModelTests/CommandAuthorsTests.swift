import RiveSyncModel
import Testing

/// `CommandAuthors` (`ChangeBatch.authors`): an author by command id, the only one held
/// without a table, the same authors equal however they were recorded.
struct CommandAuthorsTests {
    static let qa = Author(client: "qa", token: "t")
    static let kiosk = Author(client: "kiosk", token: nil)

    @Test func authorsAreFoundByCommand() {
        var authors = CommandAuthors()
        #expect(authors.isEmpty && authors[1] == nil)
        authors[1] = Self.qa
        #expect(authors.count == 1 && authors[1] == Self.qa && authors[2] == nil)
        authors[4] = Self.kiosk
        #expect(authors.count == 2 && authors[1] == Self.qa && authors[4] == Self.kiosk && authors[2] == nil)
        authors[1] = Self.kiosk
        #expect(authors[1] == Self.kiosk && authors.count == 2)
        authors[4] = nil
        #expect(authors.count == 1 && authors[1] == Self.kiosk && authors[4] == nil)
        authors[1] = nil
        #expect(authors.isEmpty && authors == [:])
    }

    @Test func theSameAuthorsAreEqualHoweverRecorded() {
        var one = CommandAuthors()
        one[7] = Self.qa
        #expect(one == [7: Self.qa] && one == CommandAuthors([7: Self.qa]) && one.hashValue == CommandAuthors([7: Self.qa]).hashValue)
        #expect(one != [8: Self.qa] && one != [7: Self.kiosk] && one != [:])
        var two = CommandAuthors()
        two[9] = Self.kiosk
        two[7] = Self.qa
        #expect(two == [7: Self.qa, 9: Self.kiosk] && two.dictionary == [7: Self.qa, 9: Self.kiosk])
        #expect(two.hashValue == CommandAuthors([9: Self.kiosk, 7: Self.qa]).hashValue)
        two[9] = nil
        #expect(two == one)
    }
}
