import RiveSyncJSON
import RiveSyncModel

/// Typed access to a message's fields, throwing `bad_message` errors that name the field.
struct Fields {
    let json: JSONValue

    func string(_ name: String) throws(WireError) -> String {
        guard let value = json[name]?.stringValue else { throw .badField(name, "a string") }
        return value
    }

    /// A path, parsed here once (`ParsedPath`); a path that does not parse is the worker's
    /// `invalid_path` error, as before.
    func path(_ name: String) throws(WireError) -> ParsedPath {
        ParsedPath(try string(name))
    }

    func optionalString(_ name: String) throws(WireError) -> String? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .badField(name, "a string or null") }
        return text
    }

    func int(_ name: String) throws(WireError) -> Int {
        guard let value = json[name]?.intValue else { throw .badField(name, "an integer") }
        return value
    }

    /// A positive integer, or nil when absent or null.
    func optionalPositiveInt(_ name: String) throws(WireError) -> Int? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let number = value.intValue, number > 0 else { throw .badField(name, "a positive integer or null") }
        return number
    }

    /// An advance's seconds of state machine time: a finite number from 0 to
    /// `ClientRequest.maxElapsed`, 0 when absent or null.
    func elapsed(_ name: String) throws(WireError) -> Double {
        guard let value = json[name], !value.isNull else { return 0 }
        guard let seconds = value.numberValue, seconds.isFinite, seconds >= 0, seconds <= ClientRequest.maxElapsed else {
            throw .badField(name, "a number of seconds from 0 to \(Int(ClientRequest.maxElapsed))")
        }
        return seconds
    }

    func optionalBool(_ name: String) throws(WireError) -> Bool? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw .badField(name, "a boolean or null") }
        return flag
    }

    /// A state machine input's value: a number (a 32-bit float) or a boolean.
    func inputValue(_ name: String) throws(WireError) -> PropertyValue {
        if let flag = json[name]?.boolValue { return .boolean(flag) }
        guard let number = json[name]?.numberValue, Float(number).isFinite else { throw .badField(name, "a number or a boolean") }
        return .number(Float(number))
    }

    func instance(_ name: String) throws(WireError) -> InstanceID {
        guard let value = json[name]?.intValue, value > 0 else { throw .badField(name, "an instance id (a positive integer)") }
        return InstanceID(UInt64(value))
    }

    func optionalInstance(_ name: String) throws(WireError) -> InstanceID? {
        guard let value = json[name], !value.isNull else { return nil }
        return try instance(name)
    }

    func value(_ name: String) throws(WireError) -> JSONValue {
        guard let value = json[name] else { throw .badField(name, "a value") }
        return value
    }

    func strings(_ name: String) throws(WireError) -> [String]? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let items = value.arrayValue else { throw .badField(name, "an array of strings") }
        var result: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw .badField(name, "an array of strings") }
            result.append(text)
        }
        return result
    }

    func globals(_ name: String) throws(WireError) -> [GlobalBinding] {
        guard let value = json[name], !value.isNull else { return [] }
        guard let items = value.arrayValue else { throw .badField(name, "an array of {name, instance}") }
        var result: [GlobalBinding] = []
        for item in items {
            let fields = Fields(json: item)
            result.append(GlobalBinding(name: try fields.string("name"), instance: try fields.instance("instance")))
        }
        return result
    }
}
