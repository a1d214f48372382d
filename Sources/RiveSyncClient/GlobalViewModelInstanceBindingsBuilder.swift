/// Builds the global bindings of `createStateMachine` and `bindViewModelInstances` from
/// `("Theme", instance)` tuples, with `if`, `if let`, `if`/`else` and `for`, as Rive's does.
@resultBuilder
public enum GlobalViewModelInstanceBindingsBuilder {
    public typealias Binding = (String, ViewModelInstance)

    public static func buildExpression(_ expression: Binding) -> [Binding] { [expression] }
    public static func buildBlock(_ components: [Binding]...) -> [Binding] { components.flatMap { $0 } }
    public static func buildOptional(_ component: [Binding]?) -> [Binding] { component ?? [] }
    public static func buildEither(first component: [Binding]) -> [Binding] { component }
    public static func buildEither(second component: [Binding]) -> [Binding] { component }
    public static func buildArray(_ components: [[Binding]]) -> [Binding] { components.flatMap { $0 } }
}
