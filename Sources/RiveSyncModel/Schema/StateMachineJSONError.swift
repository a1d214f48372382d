/// What is wrong with a state machine described in the JSON schema format
/// (`protocol/SCHEMA.md`, "State machines"). Each case carries the JSON path of the problem
/// (`artboards[0].stateMachines[0].layers[0].states[2].transitions[0].to`); loading a file
/// reports it as `FileError.invalidData` with that path first.
public enum StateMachineJSONError: Error, Sendable, Hashable {
    /// A member is missing or has the wrong JSON type (path, what was expected).
    case invalidMember(at: String, expected: String)
    /// A member the format does not have (a typo, or what only a `.riv` file holds, such as a
    /// blend state).
    case unknownMember(at: String)
    /// A type name that is not one this format describes (path, name, allowed).
    case unknownType(at: String, name: String, allowed: [String])
    /// A transition goes to a state the layer does not have, or whose name is not unique.
    case unknownState(at: String, name: String)
    /// A property path leads nowhere from the artboard's view model (path, property path).
    case noSuchProperty(at: String, path: String)
    /// A property has a type the condition or action cannot use (path, property, its type).
    case unusableProperty(at: String, path: String, type: String)
    /// A comparator is not one of Rive's `TransitionConditionOp` names, or does not apply to
    /// the property's type (path, comparator, type).
    case badComparator(at: String, comparator: String, type: String)
    /// A value does not fit its property (path, expected).
    case badValue(at: String, expected: String)
    /// A layer does not have exactly one `EntryState`, or has two `AnyState`s or `ExitState`s.
    case badLayer(at: String, reason: String)
    /// The artboard has no view model, so property paths have nowhere to start.
    case noViewModel(at: String)
    /// A name is given twice where names must be unique (path, name).
    case duplicateName(at: String, name: String)
    /// The file gives both a raw `graph` and state machines described in its artboards.
    case graphGivenTwice
    /// A converter reference names none of the file's converters, or several (path, name or index).
    case unknownConverter(at: String, name: String)
    /// An event name the artboard's `events` do not have (path, name).
    case unknownEvent(at: String, name: String)
    /// A data bind's target is not `Type 'name'` or `Type #n` of a Rive component type (path, target).
    case badTarget(at: String, target: String)
    /// A data bind's target property is not a property of the target's type (path, property, type).
    case noSuchTargetProperty(at: String, property: String, type: String)
    /// A converter, formula token or interpolator is not a graph object the format reads (path,
    /// the graph reader's reason, which names the member).
    case badObject(at: String, reason: String)

    /// Where the problem is and what it is, on one line.
    public var description: String {
        switch self {
        case .invalidMember(let at, let expected): return "\(at): expected \(expected)"
        case .unknownMember(let at): return "\(at): not a member of this format"
        case .unknownType(let at, let name, let allowed):
            return "\(at): unknown type '\(name)' (one of \(allowed.joined(separator: ", ")))"
        case .unknownState(let at, let name): return "\(at): the layer has no state named '\(name)' (or several)"
        case .noSuchProperty(let at, let path): return "\(at): no property '\(path)' from the artboard's view model"
        case .unusableProperty(let at, let path, let type): return "\(at): '\(path)' is a \(type) property, which this cannot use"
        case .badComparator(let at, let comparator, let type):
            return "\(at): comparator '\(comparator)' does not apply to a \(type) (\(Self.comparatorNames))"
        case .badValue(let at, let expected): return "\(at): expected \(expected)"
        case .badLayer(let at, let reason): return "\(at): \(reason)"
        case .noViewModel(let at): return "\(at): the artboard has no view model for property paths to start at"
        case .duplicateName(let at, let name): return "\(at): duplicate name '\(name)'"
        case .graphGivenTwice: return "graph: give either a graph or state machines described in artboards, not both"
        case .unknownConverter(let at, let name): return "\(at): no converter '\(name)' (or several with that name)"
        case .unknownEvent(let at, let name): return "\(at): the artboard has no event '\(name)'"
        case .badTarget(let at, let target):
            return "\(at): '\(target)' is not a component as \"Type 'name'\" or \"Type #n\" with a Rive component type"
        case .noSuchTargetProperty(let at, let property, let type): return "\(at): \(type) has no property '\(property)'"
        case .badObject(let at, let reason): return reason.hasPrefix(at) ? reason : "\(at): \(reason)"
        }
    }

    static let comparatorNames = "equal, notEqual, lessThanOrEqual, greaterThanOrEqual, lessThan, greaterThan"
}
