/// Why a state machine's inputs or data-bind targets could not be driven directly.
public enum StateMachineDriveError: Error, Sendable, Hashable {
    /// The target has no running state machine (a published instance, or a file without a graph).
    case noStateMachine(target: String)
    /// The state machine has no input with this name.
    case noSuchInput(String)
    /// The value does not fit the input (a number for a number input, a boolean for a boolean
    /// input, none for a trigger).
    case invalidInputValue(String)
    /// The state machine's artboard has no data bind to a component with this index.
    case noSuchDataBind(Int)
}
