import Foundation

/// A 2D affine transform as Rive stores one (`Mat2D`): `[a, b, c, d, tx, ty]`, mapping a
/// point (x, y) to (a·x + c·y + tx, b·x + d·y + ty). Computed in `Float`, as Rive does.
struct Mat2D: Sendable, Hashable {
    var values: [Float]

    static let identity = Mat2D(values: [1, 0, 0, 1, 0, 0])

    subscript(index: Int) -> Float {
        get { values[index] }
        set { values[index] = newValue }
    }

    /// A rotation by `radians` (exactly the identity for 0).
    static func rotation(_ radians: Float) -> Mat2D {
        guard radians != 0 else { return .identity }
        return Mat2D(values: [cos(radians), sin(radians), -sin(radians), cos(radians), 0, 0])
    }

    /// A translation, a rotation and a scale, applied scale first (Rive's `updateTransform`).
    static func local(x: Float, y: Float, rotation radians: Float, scaleX: Float, scaleY: Float) -> Mat2D {
        var result = rotation(radians)
        result[4] = x
        result[5] = y
        result.scale(by: scaleX, scaleY)
        return result
    }

    /// Scales the transform's x and y axes (Rive's `scaleByValues`).
    mutating func scale(by scaleX: Float, _ scaleY: Float) {
        values[0] *= scaleX
        values[1] *= scaleX
        values[2] *= scaleY
        values[3] *= scaleY
    }

    /// `self` applied after `other`: `self * other`.
    static func * (lhs: Mat2D, rhs: Mat2D) -> Mat2D {
        let a = lhs.values
        let b = rhs.values
        return Mat2D(values: [
            a[0] * b[0] + a[2] * b[1],
            a[1] * b[0] + a[3] * b[1],
            a[0] * b[2] + a[2] * b[3],
            a[1] * b[2] + a[3] * b[3],
            a[0] * b[4] + a[2] * b[5] + a[4],
            a[1] * b[4] + a[3] * b[5] + a[5],
        ])
    }

    /// The inverse, nil when the transform collapses a dimension (determinant 0).
    var inverted: Mat2D? {
        let m = values
        let determinant = m[0] * m[3] - m[1] * m[2]
        guard determinant != 0 else { return nil }
        let inverse = 1 / determinant
        return Mat2D(values: [
            m[3] * inverse, -m[1] * inverse, -m[2] * inverse, m[0] * inverse,
            (m[2] * m[5] - m[3] * m[4]) * inverse, (m[1] * m[4] - m[0] * m[5]) * inverse,
        ])
    }

    /// The transform split into translation, rotation, scale and skew (Rive's `decompose`).
    var components: TransformComponents {
        let m = values
        let denominator = m[0] * m[0] + m[1] * m[1]
        let scaleX = denominator.squareRoot()
        return TransformComponents(
            x: m[4], y: m[5], rotation: atan2(m[1], m[0]), scaleX: scaleX,
            scaleY: scaleX == 0 ? 0 : (m[0] * m[3] - m[2] * m[1]) / scaleX,
            skew: atan2(m[0] * m[2] + m[1] * m[3], denominator))
    }

    /// The transform made of `components` (Rive's `compose`).
    init(_ components: TransformComponents) {
        self = .local(
            x: components.x, y: components.y, rotation: components.rotation, scaleX: components.scaleX, scaleY: components.scaleY)
        if components.skew != 0 {
            values[2] += values[0] * components.skew
            values[3] += values[1] * components.skew
        }
    }

    init(values: [Float]) {
        self.values = values
    }
}

/// A transform's parts (Rive's `TransformComponents`).
struct TransformComponents: Sendable, Hashable {
    var x: Float
    var y: Float
    var rotation: Float
    var scaleX: Float
    var scaleY: Float
    var skew: Float
}
