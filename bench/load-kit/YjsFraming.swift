/// Yjs updates and y-websocket messages, encoded by hand from the published formats
/// (lib0 varints, y-protocols sync messages, the Yjs v1 update encoding).
///
/// The writer models `doc.getMap(root).set(key, "<record>")`: the first write of a key is an
/// item whose parent is the root type and whose `parentSub` is the key; each later write is an
/// item whose left origin is the writer's previous item (same client, previous clock), from
/// which the receiver takes parent and key. Each item holds one `ContentAny` string, so the
/// clock advances by one per update.
public enum YjsFraming {
    /// y-websocket message types and y-protocols sync message types.
    public static let messageSync: UInt = 0
    public static let messageAwareness: UInt = 1
    public static let syncStep1: UInt = 0
    public static let syncStep2: UInt = 1
    public static let syncUpdate: UInt = 2

    /// Item info bits and content reference of the v1 update encoding.
    static let hasOrigin: UInt8 = 0x80
    static let hasParentSub: UInt8 = 0x20
    static let contentAny: UInt8 = 8
    /// lib0 `writeAny` tag for a string.
    static let anyString: UInt8 = 119

    /// A lib0 variable-length unsigned integer (7 bits per byte, low group first).
    public static func appendVarUint(_ value: UInt, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    /// A lib0 string: byte length as a varint, then UTF-8.
    public static func appendVarString(_ text: String, to out: inout [UInt8]) {
        appendVarUint(UInt(text.utf8.count), to: &out)
        out += text.utf8
    }

    /// A v1 update holding one map write by `client` at `clock` (0 = first write of `key`).
    public static func mapSetUpdate(client: UInt, clock: UInt, root: String, key: String, value: String) -> [UInt8] {
        var out: [UInt8] = []
        appendVarUint(1, to: &out)  // one client's structs
        appendVarUint(1, to: &out)  // one struct
        appendVarUint(client, to: &out)
        appendVarUint(clock, to: &out)
        if clock == 0 {
            out.append(hasParentSub | contentAny)
            appendVarUint(1, to: &out)  // parent is a root type, named by a string
            appendVarString(root, to: &out)
            appendVarString(key, to: &out)
        } else {
            out.append(hasOrigin | hasParentSub | contentAny)
            appendVarUint(client, to: &out)  // left origin: this client's previous item
            appendVarUint(clock - 1, to: &out)
        }
        appendVarUint(1, to: &out)  // ContentAny with one value
        out.append(anyString)
        appendVarString(value, to: &out)
        appendVarUint(0, to: &out)  // empty delete set
        return out
    }

    /// The y-websocket message carrying `update`: sync, update, then the update as a byte array.
    public static func updateMessage(_ update: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        appendVarUint(messageSync, to: &out)
        appendVarUint(syncUpdate, to: &out)
        appendVarUint(UInt(update.count), to: &out)
        return out + update
    }
}
