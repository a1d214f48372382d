import RiveSyncJSON
import RiveSyncModel

/// Typed, strict access to the fields of one server message (or one object inside it):
/// a missing field or a wrong JSON type is `ServerMessageDecodingError.malformed`, naming the
/// field by its place (`files[2].source`). Fields it is not asked for are ignored (§14).
struct ServerMessageReader {
    let json: JSONValue
    let type: ServerMessageType
    /// Where `json` is inside the message ("" for the message itself).
    let place: String

    init(_ json: JSONValue, type: ServerMessageType, place: String = "") {
        self.json = json
        self.type = type
        self.place = place
    }

    func name(_ field: String) -> String { place.isEmpty ? field : "\(place).\(field)" }

    func failure(_ field: String, _ reason: String) -> ServerMessageDecodingError {
        .malformed(type: type, field: name(field), reason: reason)
    }

    func value(_ field: String) throws(ServerMessageDecodingError) -> JSONValue {
        guard let value = json[field] else { throw failure(field, "missing") }
        return value
    }

    func string(_ field: String) throws(ServerMessageDecodingError) -> String {
        guard let text = try value(field).stringValue else { throw failure(field, "expected a string") }
        return text
    }

    /// Absent is nil; present, it must be a string.
    func optionalString(_ field: String) throws(ServerMessageDecodingError) -> String? {
        guard json[field] != nil else { return nil }
        return try string(field)
    }

    func int(_ field: String) throws(ServerMessageDecodingError) -> Int {
        guard let number = try value(field).intValue else { throw failure(field, "expected an integer") }
        return number
    }

    /// A seq, command number or other count: a non-negative integer.
    func count(_ field: String) throws(ServerMessageDecodingError) -> UInt64 {
        let number = try int(field)
        guard number >= 0 else { throw failure(field, "expected a non-negative integer") }
        return UInt64(number)
    }

    func number(_ field: String) throws(ServerMessageDecodingError) -> Double {
        guard let number = try value(field).numberValue else { throw failure(field, "expected a number") }
        return number
    }

    func bool(_ field: String) throws(ServerMessageDecodingError) -> Bool {
        guard let flag = try value(field).boolValue else { throw failure(field, "expected a boolean") }
        return flag
    }

    func optionalBool(_ field: String) throws(ServerMessageDecodingError) -> Bool? {
        guard json[field] != nil else { return nil }
        return try bool(field)
    }

    func instance(_ field: String) throws(ServerMessageDecodingError) -> InstanceID {
        let number = try int(field)
        guard number > 0 else { throw failure(field, "expected an instance id (a positive integer)") }
        return InstanceID(UInt64(number))
    }

    func array(_ field: String) throws(ServerMessageDecodingError) -> [JSONValue] {
        guard let items = try value(field).arrayValue else { throw failure(field, "expected an array") }
        return items
    }

    func object(_ field: String) throws(ServerMessageDecodingError) -> [(String, JSONValue)] {
        guard let members = try value(field).objectValue else { throw failure(field, "expected an object") }
        return members
    }

    /// Each item of the array `field` read by `read` with a reader placed at the item.
    func items<T>(
        _ field: String, _ read: (ServerMessageReader) throws(ServerMessageDecodingError) -> T
    ) throws(ServerMessageDecodingError) -> [T] {
        var result: [T] = []
        for (index, item) in try array(field).enumerated() {
            let itemReader = ServerMessageReader(item, type: type, place: "\(name(field))[\(index)]")
            guard item.objectValue != nil else { throw itemReader.failure("", "expected an object") }
            result.append(try read(itemReader))
        }
        return result
    }

    func strings(_ field: String) throws(ServerMessageDecodingError) -> [String] {
        var result: [String] = []
        for item in try array(field) {
            guard let text = item.stringValue else { throw failure(field, "expected an array of strings") }
            result.append(text)
        }
        return result
    }

    func instances(_ field: String) throws(ServerMessageDecodingError) -> [InstanceID] {
        var result: [InstanceID] = []
        for item in try array(field) {
            guard let number = item.intValue, number > 0 else { throw failure(field, "expected an array of instance ids") }
            result.append(InstanceID(UInt64(number)))
        }
        return result
    }

    func counts(_ field: String) throws(ServerMessageDecodingError) -> [UInt64] {
        var result: [UInt64] = []
        for item in try array(field) {
            guard let number = item.intValue, number >= 0 else { throw failure(field, "expected an array of non-negative integers") }
            result.append(UInt64(number))
        }
        return result
    }

    /// One of a closed set of strings (an enum's raw values).
    func choice<T: RawRepresentable & CaseIterable>(_ field: String, _: T.Type) throws(ServerMessageDecodingError) -> T
    where T.RawValue == String {
        let text = try string(field)
        guard let value = T(rawValue: text) else {
            throw failure(field, "'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    func optionalChoice<T: RawRepresentable & CaseIterable>(_ field: String, _ kind: T.Type) throws(ServerMessageDecodingError) -> T?
    where T.RawValue == String {
        guard json[field] != nil else { return nil }
        return try choice(field, kind)
    }
}
