import RiveFile

/// The test writer's objects are the library's, built from key and value pairs.
typealias RivObject = RiveFileObject

extension RiveFileObject {
    init(_ typeKey: Int, _ pairs: [(key: Int, value: Value)] = []) {
        self.init(UInt64(typeKey), pairs.map { Property(UInt64($0.key), $0.value) })
    }

    mutating func set(_ key: Int, _ value: Value) {
        set(UInt64(key), value)
    }
}
