/// A playing blend state (Rive's `BlendStateInstance`): one player per blend animation, each
/// with its mix. The evaluator sets the mixes from ``BlendState1D/mixes(for:)`` or
/// ``BlendStateDirect/mixes(previous:value:)`` after each advance, as Rive does.
public struct BlendStateInstance: Sendable, Hashable {
    /// One per blend animation, in order; an animation id naming none plays an empty
    /// animation, as in Rive.
    public private(set) var players: [LinearAnimationInstance]
    /// Each player's mix, 0 until set.
    public var mixes: [Float]
    /// Applied before the animations (a 1D blend state with Rive's reset flag).
    public let reset: AnimationReset?

    public init(animations: [LinearAnimation?], reset: AnimationReset? = nil) {
        players = animations.map { LinearAnimationInstance($0 ?? LinearAnimation()) }
        mixes = Array(repeating: 0, count: animations.count)
        self.reset = reset
    }

    /// The reset a 1D blend state with the reset flag makes: its animations' number and color
    /// properties, valued from the first animation's first keyframes where it keys them, else
    /// from `store`.
    public static func reset<Store: ComponentPropertyStore>(
        for animations: [LinearAnimation?], store: Store
    ) -> AnimationReset {
        AnimationReset(animations: animations.compactMap { $0 }, store: store, useFirstAsBaseline: true)
    }

    /// Advances every player that still keeps going and returns the callbacks they crossed,
    /// player by player. A blend state itself always keeps going (its mixes may change).
    public mutating func advance(by seconds: Float) -> [KeyedCallback] {
        var callbacks: [KeyedCallback] = []
        for index in players.indices where players[index].keepGoing() {
            callbacks += players[index].advance(by: seconds).callbacks
        }
        return callbacks
    }

    /// Writes the reset (if any), then every animation whose combined mix is not 0, with
    /// `mix` times its own.
    public func apply<Store: ComponentPropertyStore>(to store: inout Store, mix: Float = 1) {
        reset?.apply(to: &store)
        for (player, own) in zip(players, mixes) {
            let combined = mix * own
            if combined == 0 { continue }
            player.apply(to: &store, mix: combined)
        }
    }
}
