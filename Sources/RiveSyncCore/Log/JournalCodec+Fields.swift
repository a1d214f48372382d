import RiveSyncJSON
import RiveSyncModel

extension JournalCodec {
    /// Strict reads of a journal object's fields: a missing field or one of the wrong type is
    /// `Invalid`, never a default.
    public struct Fields {
        public let json: JSONValue
        public let what: String

        public init(json: JSONValue, what: String) {
            self.json = json
            self.what = what
        }

        public func value(_ key: String) throws(Invalid) -> JSONValue {
            guard json.objectValue != nil, let value = json[key] else { throw Invalid(description: "\(what) without '\(key)'") }
            return value
        }

        public func string(_ key: String) throws(Invalid) -> String {
            guard let text = try value(key).stringValue else { throw Invalid(description: "\(what).\(key): expected a string") }
            return text
        }

        public func optionalString(_ key: String) throws(Invalid) -> String? {
            let found = try value(key)
            if found.isNull { return nil }
            guard let text = found.stringValue else { throw Invalid(description: "\(what).\(key): expected a string or null") }
            return text
        }

        public func int(_ key: String) throws(Invalid) -> Int {
            guard let number = try value(key).intValue else { throw Invalid(description: "\(what).\(key): expected an integer") }
            return number
        }

        public func bool(_ key: String) throws(Invalid) -> Bool {
            guard let flag = try value(key).boolValue else { throw Invalid(description: "\(what).\(key): expected a boolean") }
            return flag
        }

        public func number(_ key: String) throws(Invalid) -> Double {
            guard let number = try value(key).numberValue else { throw Invalid(description: "\(what).\(key): expected a number") }
            return number
        }

        public func optionalNumber(_ key: String) throws(Invalid) -> Double? {
            let found = try value(key)
            return found.isNull ? nil : try number(key)
        }

        /// An advance's seconds: absent (every record before format 4) is 0; present, a finite
        /// number ≥ 0.
        public func elapsed(_ key: String) throws(Invalid) -> Double {
            guard let found = json[key] else { return 0 }
            guard let seconds = found.numberValue, seconds.isFinite, seconds >= 0 else {
                throw Invalid(description: "\(what).\(key): expected a number of seconds ≥ 0")
            }
            return seconds
        }

        /// A creation's `nestedBlanks`: absent (every record before format 5) is `.null`;
        /// present, it must be `true`.
        public func nestedBlanks() throws(Invalid) -> NestedBlanks {
            guard let found = json["nestedBlanks"] else { return .null }
            guard found.boolValue == true else { throw Invalid(description: "\(what).nestedBlanks: expected true") }
            return .blankInstances
        }

        public func instance(_ key: String) throws(Invalid) -> InstanceID {
            let number = try int(key)
            guard number > 0 else { throw Invalid(description: "\(what).\(key): expected an instance id") }
            return InstanceID(UInt64(number))
        }

        public func optionalInstance(_ key: String) throws(Invalid) -> InstanceID? {
            try value(key).isNull ? nil : try instance(key)
        }

        public func array(_ key: String) throws(Invalid) -> [JSONValue] {
            guard let items = try value(key).arrayValue else { throw Invalid(description: "\(what).\(key): expected an array") }
            return items
        }
    }

    /// `{"blank": FROM}`, `{"default": FROM}`, `{"name": N, "from": FROM}` or
    /// `{"index": I, "from": FROM}`, where FROM is `{"viewModel": V}` or `{"artboard": A}`
    /// (A null: the default artboard).
    public static func encode(_ source: InstanceSource) -> JSONValue {
        func from(_ source: ViewModelSource) -> JSONValue {
            switch source {
            case .name(let name): return ["viewModel": .string(name)]
            case .artboardDefault(let artboard): return ["artboard": artboard.map(JSONValue.string) ?? .null]
            }
        }
        switch source {
        case .blank(let source): return ["blank": from(source)]
        case .viewModelDefault(let source): return ["default": from(source)]
        case .name(let name, let source): return .object([("name", .string(name)), ("from", from(source))])
        case .index(let index, let source): return .object([("index", .number(Double(index))), ("from", from(source))])
        }
    }

    public static func decodeSource(_ json: JSONValue) throws(Invalid) -> InstanceSource {
        func from(_ json: JSONValue) throws(Invalid) -> ViewModelSource {
            let fields = Fields(json: json, what: "source")
            if json["viewModel"] != nil { return .name(try fields.string("viewModel")) }
            return .artboardDefault(try fields.optionalString("artboard"))
        }
        let fields = Fields(json: json, what: "source")
        if let blank = json["blank"] { return .blank(from: try from(blank)) }
        if let fallback = json["default"] { return .viewModelDefault(from: try from(fallback)) }
        if json["name"] != nil { return .name(try fields.string("name"), from: try from(try fields.value("from"))) }
        if json["index"] != nil { return .index(try fields.int("index"), from: try from(try fields.value("from"))) }
        throw Invalid(description: "source \(json.jsonText)")
    }
}
