import RiveSyncJSON
import RiveSyncModel

/// The one codec of presence announcements (protocol/CLUSTER.md §2.9): JSON objects with a
/// `kind`. Decoding is strict: anything else is a `PresenceAnnouncementCodec.Invalid`.
public enum PresenceAnnouncementCodec {
    /// An announcement that cannot be read (why).
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    public static func encode(_ announcement: PresenceAnnouncement) -> [UInt8] {
        let value: JSONValue
        switch announcement {
        case .alive: value = ["kind": "alive"]
        case .hello: value = ["kind": "hello"]
        case .members(let target, let members, let left):
            value = [
                "kind": "members", "target": .string(target),
                "members": .array(
                    members.map { member in
                        var fields: [(String, JSONValue)] = [
                            ("member", .number(Double(member.member.number))), ("state", member.state), ("key", .string(member.keyDigest)),
                        ]
                        if let grace = member.graceMilliseconds { fields.append(("graceMilliseconds", .number(Double(grace)))) }
                        return .object(fields)
                    }),
                "left": .array(left.map { ["member": .number(Double($0.member.number)), "reason": .string($0.reason.rawValue)] }),
            ]
        }
        return value.serialized()
    }

    public static func decode(_ bytes: [UInt8]) throws(Invalid) -> PresenceAnnouncement {
        let value: JSONValue
        do { value = try JSONParser().parse(bytes) } catch { throw Invalid(description: "not JSON: \(error)") }
        switch value["kind"]?.stringValue {
        case "alive": return .alive
        case "hello": return .hello
        case "members":
            guard let target = value["target"]?.stringValue, let members = value["members"]?.arrayValue,
                let left = value["left"]?.arrayValue
            else { throw Invalid(description: "members without target, members or left") }
            return .members(
                target: target, members: try members.map { (member: JSONValue) throws(Invalid) in try sharedMember(member) },
                left: try left.map { (member: JSONValue) throws(Invalid) in try departed(member) })
        default: throw Invalid(description: "unknown kind")
        }
    }

    private static func number(_ value: JSONValue?) throws(Invalid) -> UInt64 {
        guard let number = value?.numberValue, number >= 0, number < 9_007_199_254_740_992, number == number.rounded() else {
            throw Invalid(description: "not a member number")
        }
        return UInt64(number)
    }

    private static func sharedMember(_ value: JSONValue) throws(Invalid) -> SharedMember {
        guard let state = value["state"], state.objectValue != nil, let key = value["key"]?.stringValue else {
            throw Invalid(description: "a member without state or key")
        }
        let grace = value["graceMilliseconds"]
        return SharedMember(
            member: MemberID(try number(value["member"])), state: state, keyDigest: key,
            graceMilliseconds: grace == nil ? nil : try number(grace))
    }

    private static func departed(_ value: JSONValue) throws(Invalid) -> DepartedMember {
        guard let reason = value["reason"]?.stringValue.flatMap(LeaveReason.init(rawValue:)) else {
            throw Invalid(description: "a departed member without reason")
        }
        return DepartedMember(member: MemberID(try number(value["member"])), reason: reason)
    }
}
