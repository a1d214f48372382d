/// A list that holds one element inline, and two or more in an array: a list of one (the
/// usual advance's one command) allocates nothing. Copying it copies one reference, as an
/// array's does.
///
/// Its API is inlinable so that other modules (the daemon's worker) get
/// code specialised for their element type (bench/README.md, "The set path, round eleven").
public struct CompactList<Element> {
    @usableFromInline var storage: Storage

    @usableFromInline enum Storage {
        case none
        /// One element, without an array.
        case one(Element)
        /// Two or more, in order.
        case several([Element])
    }

    @inlinable public init() { storage = .none }

    /// One element.
    @inlinable public init(_ element: Element) { storage = .one(element) }

    /// `elements`, in their order.
    @inlinable public init(_ elements: [Element]) {
        switch elements.count {
        case 0: storage = .none
        case 1: storage = .one(elements[0])
        default: storage = .several(elements)
        }
    }
}

extension CompactList: RandomAccessCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral {
    @inlinable public init<S: Sequence>(_ elements: S) where S.Element == Element { self.init(Array(elements)) }

    @inlinable public init(arrayLiteral elements: Element...) { self.init(elements) }

    @inlinable public var startIndex: Int { 0 }

    @inlinable public var endIndex: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .several(let elements): elements.count
        }
    }

    @inlinable public subscript(position: Int) -> Element {
        switch storage {
        case .one(let element) where position == 0: return element
        case .several(let elements): return elements[position]
        default: preconditionFailure("index \(position) out of range")
        }
    }

    /// Adds `element` at the end: the first without an array.
    @inlinable public mutating func append(_ element: Element) {
        switch storage {
        case .none:
            storage = .one(element)
        case .one(let first):
            storage = .several([first, element])
        case .several(var elements):
            // Out of the storage first, so that the array is not shared when it grows.
            storage = .none
            elements.append(element)
            storage = .several(elements)
        }
    }

    @inlinable public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with elements: C)
    where C.Element == Element {
        var all = Array(self)
        all.replaceSubrange(range, with: elements)
        self = CompactList(all)
    }
}

extension CompactList: Equatable where Element: Equatable {
    @inlinable public static func == (a: CompactList, b: CompactList) -> Bool { a.elementsEqual(b) }
}

extension CompactList: Hashable where Element: Hashable {
    @inlinable public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension CompactList: Sendable where Element: Sendable {}

extension CompactList.Storage: Sendable where Element: Sendable {}
