/// How each kind of keyframe writes a property, and mixes with the value already there, as
/// Rive's keyframes do: numbers lerp in Float, colors per channel (rounded, clamped), the
/// interpolating uints (color channels) lerp and round; bools, ids, ints, strings and the
/// other uints are set as they are, whatever the mix.
enum KeyFrameApplier {
    /// The uint property keys Rive interpolates (`ColorChannels` red, green, blue, alpha).
    static let interpolatingUintKeys: Set<Int> = [118, 136, 210, 218]

    /// Writes `frame`'s own value.
    static func apply<Store: ComponentPropertyStore>(
        _ frame: KeyFrame, to store: inout Store, _ target: AnimatedProperty, mix: Float
    ) {
        switch frame.value {
        case .double(let value): mixDouble(value, into: &store, target, mix: mix)
        case .color(let value): mixColor(value, into: &store, target, mix: mix)
        case .bool(let value): store.set(.bool(value), of: target)
        case .id(let value): store.set(.uint(value), of: target)
        case .uint(let value):
            if interpolatingUintKeys.contains(target.property) {
                mixUint(value, into: &store, target, mix: mix)
            } else {
                store.set(.uint(value), of: target)
            }
        case .int(let value): store.set(.int(value), of: target)
        case .string(let value): store.set(.string(value), of: target)
        case .callback: break
        }
    }

    /// Writes the value between `from` and `to` at `seconds`: through from's interpolator if it has one, else a straight line.
    static func interpolate<Store: ComponentPropertyStore>(
        _ from: KeyFrame, _ to: KeyFrame, at seconds: Float, into store: inout Store,
        _ target: AnimatedProperty, mix: Float
    ) {
        let factor = (seconds - from.seconds) / (to.seconds - from.seconds)
        let interpolator = from.interpolator
        switch (from.value, to.value) {
        case (.double(let a), .double(let b)):
            let value = interpolator?.transformValue(from: a, to: b, factor: factor) ?? a + (b - a) * factor
            mixDouble(value, into: &store, target, mix: mix)
        case (.color(let a), .color(let b)):
            let eased = interpolator?.transform(factor) ?? factor
            mixColor(colorLerp(a, b, eased), into: &store, target, mix: mix)
        case (.uint(let a), .uint(let b)) where interpolatingUintKeys.contains(target.property):
            let fa = Float(a)
            let fb = Float(b)
            let value = interpolator?.transformValue(from: fa, to: fb, factor: factor) ?? fa + (fb - fa) * factor
            mixUint(roundToUint(value), into: &store, target, mix: mix)
        default:
            apply(from, to: &store, target, mix: mix)
        }
    }

    static func mixDouble<Store: ComponentPropertyStore>(
        _ value: Float, into store: inout Store, _ target: AnimatedProperty, mix: Float
    ) {
        if mix == 1 {
            store.set(.double(value), of: target)
            return
        }
        var current: Float = 0
        if case .double(let stored) = store.value(of: target) { current = stored }
        store.set(.double(current * (1 - mix) + value * mix), of: target)
    }

    static func mixColor<Store: ComponentPropertyStore>(
        _ value: UInt32, into store: inout Store, _ target: AnimatedProperty, mix: Float
    ) {
        if mix == 1 {
            store.set(.color(value), of: target)
            return
        }
        var current: UInt32 = 0
        if case .color(let stored) = store.value(of: target) { current = stored }
        store.set(.color(colorLerp(current, value, mix)), of: target)
    }

    static func mixUint<Store: ComponentPropertyStore>(
        _ value: UInt32, into store: inout Store, _ target: AnimatedProperty, mix: Float
    ) {
        if mix == 1 {
            store.set(.uint(value), of: target)
            return
        }
        var current: UInt32 = 0
        if case .uint(let stored) = store.value(of: target) { current = stored }
        store.set(.uint(roundToUint(Float(current) * (1 - mix) + Float(value) * mix)), of: target)
    }

    /// Rounds half away from zero; negatives (a cubic overshoot) become 0.
    static func roundToUint(_ value: Float) -> UInt32 {
        if value <= 0 { return 0 }
        let rounded = value.rounded(.toNearestOrAwayFromZero)
        return rounded >= Float(UInt32.max) ? UInt32.max : UInt32(rounded)
    }

    /// Rive's `colorLerp`: each 8-bit channel lerped in Float, clamped to 0...255, rounded.
    static func colorLerp(_ from: UInt32, _ to: UInt32, _ mix: Float) -> UInt32 {
        var result: UInt32 = 0
        for shift in stride(from: 24, through: 0, by: -8) {
            let a = Float((from >> UInt32(shift)) & 0xFF)
            let b = Float((to >> UInt32(shift)) & 0xFF)
            let channel = max(0, min(255, a * (1 - mix) + b * mix)).rounded(.toNearestOrAwayFromZero)
            result |= UInt32(channel) << UInt32(shift)
        }
        return result
    }
}
