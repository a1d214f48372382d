import StateMachineTraceSupport

extension StateMachineTrace {
    /// Why the protocol cannot drive this trace as Rive's runtime was driven (nil: it can);
    /// such a trace is listed in docs/STATE-MACHINE-DAEMON.md.
    var unreachableOverTheProtocol: String? {
        for step in steps + beforeBind where step["setTarget"] != nil {
            return "it writes a data bind's target component as an animation would, which no client can"
        }
        return nil
    }
}
