/// The author of each applied command of a batch that has one, by command id
/// (`ChangeBatch.authors`).
///
/// One author, the usual advance's, is held inline: a batch makes no hashed table for it. A
/// dictionary holds two or more. Reading an author is inlinable, so that the batch writers (in
/// another module) read it where the batch lies.
public struct CommandAuthors: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    @usableFromInline var storage: Storage

    @usableFromInline enum Storage: Sendable {
        case none
        /// One command's author, without a table.
        case one(command: UInt64, author: Author)
        /// Two or more, by command id.
        case several([UInt64: Author])
    }

    public init() { storage = .none }

    /// The authors in `authors`.
    public init(_ authors: [UInt64: Author]) {
        storage = .none
        for (command, author) in authors { self[command] = author }
    }

    public init(dictionaryLiteral authors: (UInt64, Author)...) {
        self.init(Dictionary(authors) { _, last in last })
    }

    /// How many commands have an author.
    @inlinable public var count: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .several(let authors): authors.count
        }
    }

    @inlinable public var isEmpty: Bool { count == 0 }

    /// The author of command `command`, nil when it has none; set to record one.
    public subscript(command: UInt64) -> Author? {
        @inlinable get {
            switch storage {
            case .none: return nil
            case .one(let only, let author): return only == command ? author : nil
            case .several(let authors): return authors[command]
            }
        }
        set {
            // The only author, or none: no table.
            switch storage {
            case .none:
                if let author = newValue { storage = .one(command: command, author: author) }
                return
            case .one(let only, _) where only == command:
                storage = newValue.map { .one(command: command, author: $0) } ?? .none
                return
            default:
                break
            }
            var authors = dictionary
            // Out of the storage first, so that the table is not shared when it changes.
            storage = .none
            authors[command] = newValue
            if authors.count > 1 {
                storage = .several(authors)
            } else if let only = authors.first {
                storage = .one(command: only.key, author: only.value)
            }
        }
    }

    /// The authors as a table, by command id.
    public var dictionary: [UInt64: Author] {
        switch storage {
        case .none: return [:]
        case .one(let command, let author): return [command: author]
        case .several(let authors): return authors
        }
    }

    public static func == (a: CommandAuthors, b: CommandAuthors) -> Bool { a.dictionary == b.dictionary }

    public func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }
}
