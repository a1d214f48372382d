extension StateMachineInstance {
    /// `CustomPropertyTrigger.propertyValue`: how many times the custom trigger property
    /// fired this frame (a to-source or two-way bind fires its view-model trigger when it is
    /// not zero).
    static let customPropertyTriggerValueKey = 870

    /// A timeline crossed a custom trigger property's fire keyframe: its count goes up by one,
    /// as an animated value that reaches the view model through its binds.
    mutating func fireCustomPropertyTrigger(_ component: Int) {
        let property = BoundComponentProperty(component: component, key: Self.customPropertyTriggerValueKey)
        var count: Float = 0
        if case .number(let current)? = componentValue(property) { count = current }
        componentValues[property] = .number(count + 1)
        animatedComponents.insert(property)
    }

    /// The end of a frame resets every custom trigger property's count to zero (Rive's
    /// resetting components).
    mutating func resetCustomPropertyTriggers() {
        for property in componentValues.keys where property.key == Self.customPropertyTriggerValueKey {
            componentValues[property] = .number(0)
        }
    }
}
