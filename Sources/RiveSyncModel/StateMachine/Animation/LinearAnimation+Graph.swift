extension LinearAnimation {
    /// The artboard's linear animations in file order (the index a state's or blend
    /// animation's `animationId` names), read as Rive's importer reads them: each
    /// `LinearAnimation` owns the `KeyedObject`s after it, each of those the `KeyedProperty`s
    /// after it, each of those the keyframes after it. As in Rive, a keyed object whose
    /// component is missing, or with a keyframe whose interpolator is missing, is dropped; so
    /// is a keyed property the component's type does not have, or one without keyframes.
    public static func animations(in artboard: ArtboardObjects) -> [LinearAnimation] {
        var builder = Builder(artboard: artboard)
        for object in artboard.objects { builder.read(object) }
        return builder.finish()
    }

    /// Rive's type key for `LinearAnimation`.
    public static let typeKey = 31

    private struct Builder {
        let artboard: ArtboardObjects
        var animations: [LinearAnimation] = []
        var current: LinearAnimation?
        /// Whether the latest keyed object has a keyframe Rive would reject.
        var currentObjectFailed = false
        var hasObject = false
        var hasProperty = false

        init(artboard: ArtboardObjects) { self.artboard = artboard }

        mutating func read(_ object: RiveObject) {
            switch object.typeKey {
            case LinearAnimation.typeKey:
                closeAnimation()
                current = LinearAnimation(
                    name: object.string(55) ?? "",
                    fps: UInt32(truncatingIfNeeded: object.uint(56) ?? 60),
                    duration: UInt32(truncatingIfNeeded: object.uint(57) ?? 60),
                    speed: object.float(58) ?? 1,
                    loop: Loop(rawValue: UInt32(truncatingIfNeeded: object.uint(59) ?? 0)) ?? .oneShot,
                    workStart: UInt32(truncatingIfNeeded: object.uint(60) ?? UInt64(UInt32.max)),
                    workEnd: UInt32(truncatingIfNeeded: object.uint(61) ?? UInt64(UInt32.max)),
                    enableWorkArea: (object.uint(62) ?? 0) != 0,
                    quantize: (object.uint(376) ?? 0) != 0)
                hasObject = false
                hasProperty = false
            case 25:
                guard current != nil else { return }
                closeObject()
                current?.keyedObjects.append(
                    KeyedObject(objectId: UInt32(truncatingIfNeeded: object.uint(51) ?? UInt64(UInt32.max)), keyedProperties: []))
                currentObjectFailed = false
                hasObject = true
                hasProperty = false
            case 26:
                guard hasObject, var animation = current else { return }
                let key = Int(truncatingIfNeeded: object.uint(53) ?? 0)
                animation.keyedObjects[animation.keyedObjects.count - 1].keyedProperties.append(
                    KeyedProperty(propertyKey: key, keyFrames: []))
                current = animation
                hasProperty = true
            default:
                guard let value = KeyFrame.value(of: object) else { return }
                guard hasProperty, var animation = current else { return }
                let frame = UInt32(truncatingIfNeeded: object.uint(67) ?? 0)
                var interpolator: KeyFrameInterpolator?
                let reference = object.uint(69).flatMap { $0 == UInt64(UInt32.max) ? nil : UInt32(truncatingIfNeeded: $0) }
                if value != .callback, let reference {
                    // A reference to nothing, or to something that is no interpolator, fails the
                    // keyframe in Rive; an interpolator this runtime does not evaluate (a
                    // scripted one) leaves the keyframe linear.
                    let target = artboard.component(reference)
                    if let target, let resolved = KeyFrameInterpolator(target) {
                        interpolator = resolved
                    } else if !(target.map { RiveDefinitions.type($0.typeKey, isA: 175) } ?? false) {
                        currentObjectFailed = true
                    }
                }
                let keyFrame = KeyFrame(
                    frame: frame, seconds: Float(frame) / Float(animation.fps), value: value,
                    interpolation: KeyFrame.Interpolation(rawValue: object.uint(68) ?? 0), interpolator: interpolator)
                let objectIndex = animation.keyedObjects.count - 1
                let propertyIndex = animation.keyedObjects[objectIndex].keyedProperties.count - 1
                animation.keyedObjects[objectIndex].keyedProperties[propertyIndex].keyFrames.append(keyFrame)
                current = animation
            }
        }

        /// Validates the latest keyed object as Rive does when the artboard initializes.
        mutating func closeObject() {
            guard hasObject, var animation = current, var last = animation.keyedObjects.popLast() else { return }
            defer { current = animation }
            guard !currentObjectFailed, let component = artboard.component(last.objectId) else { return }
            last.keyedProperties.removeAll { property in
                if property.keyFrames.isEmpty { return true }
                guard let definition = RiveDefinitions.property(property.propertyKey) else { return false }
                return !RiveDefinitions.type(component.typeKey, isA: definition.owner)
            }
            animation.keyedObjects.append(last)
        }

        mutating func closeAnimation() {
            closeObject()
            if let animation = current { animations.append(animation) }
            current = nil
            hasObject = false
        }

        mutating func finish() -> [LinearAnimation] {
            closeAnimation()
            return animations
        }
    }
}
