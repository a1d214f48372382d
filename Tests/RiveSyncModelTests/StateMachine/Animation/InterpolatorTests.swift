import RiveSyncModel
import Testing

/// Curve values computed independently (double precision, exact bisection on the Bézier).
@Suite struct InterpolatorTests {
    private static let factors: [Float] = [0.1, 0.25, 0.5, 0.75, 0.9]

    @Test(arguments: [
        ([Float(0.42), 0, 0.58, 1], [Float(0.019722), 0.129162, 0.5, 0.870838, 0.980278]),
        ([0.25, 0.1, 0.25, 1], [0.094796, 0.408511, 0.802403, 0.960459, 0.994316]),
        ([0.68, -0.55, 0.265, 1.55], [-0.066291, -0.082807, 0.60668, 1.089166, 1.062373]),
    ])
    func cubicEaseFollowsTheCurve(points: [Float], expected: [Float]) {
        let ease = CubicEaseInterpolator(x1: points[0], y1: points[1], x2: points[2], y2: points[3])
        for (factor, value) in zip(Self.factors, expected) {
            #expect(abs(ease.transform(factor) - value) < 1e-4, "x=\(factor)")
        }
        #expect(abs(ease.transform(0)) < 1e-6)
        #expect(abs(ease.transform(1) - 1) < 1e-5)
        #expect(abs(ease.transformValue(from: 10, to: 20, factor: 0.5) - (10 + 10 * expected[2])) < 1e-3)
    }

    @Test func aStraightCurveIsTheIdentity() {
        let line = CubicEaseInterpolator(x1: 0, y1: 0, x2: 1, y2: 1)
        for factor in stride(from: Float(0), through: 1, by: 0.05) {
            #expect(abs(line.transform(factor) - factor) < 1e-5)
        }
    }

    @Test func cubicValueRunsThroughItsValues() {
        let curve = CubicValueInterpolator(x1: 0.42, y1: 0, x2: 0.58, y2: 100)
        let expected: [(Float, Float)] = [(0, 10), (0.25, 16.99984), (0.5, 45), (0.75, 63.92946), (1, 50)]
        for (factor, value) in expected {
            #expect(abs(curve.transformValue(from: 10, to: 50, factor: factor) - value) < 1e-3, "f=\(factor)")
        }
        // As a factor easing it does nothing, as in Rive.
        #expect(curve.transform(0.3) == 0.3)
    }

    @Test func elasticEasings() {
        let factors: [Float] = [0, 0.1, 0.3, 0.5, 0.7, 1]
        let cases: [(ElasticInterpolator.Easing, [Float])] = [
            (.easeIn, [0.000977, 0.000604, -0.00632, 0.03125, -0.101127, 1.0]),
            (.easeOut, [0.0, 0.845492, 1.101127, 0.96875, 1.00632, 0.999023]),
            (.easeInOut, [0.000488, -0.00158, 0.009657, 0.5, 0.990343, 0.999512]),
        ]
        for (easing, values) in cases {
            let elastic = ElasticInterpolator(easing: easing, amplitude: 1, period: 0.5)
            for (factor, value) in zip(factors, values) {
                #expect(abs(elastic.transform(factor) - value) < 1e-5, "\(easing) x=\(factor)")
            }
        }
    }

    @Test func elasticBelowUnitAmplitudeRampsIn() {
        let cases: [(ElasticInterpolator.Easing, [Float])] = [
            (.easeIn, [0.000657, -0.001207, -0.025282]),
            (.easeOut, [0.394751, 1.019314, 1.00632]),
            (.easeInOut, [0.000395, -0.012641, 0.976824]),
        ]
        for (easing, values) in cases {
            let elastic = ElasticInterpolator(easing: easing, amplitude: 0.5, period: 1)
            for (factor, value) in zip([Float(0.05), 0.3, 0.6], values) {
                #expect(abs(elastic.transform(factor) - value) < 1e-5, "\(easing) x=\(factor)")
            }
        }
    }

    @Test func aZeroPeriodIsRivesHalfSecond() {
        #expect(ElasticInterpolator(period: 0) == ElasticInterpolator(period: 0.5))
    }

    @Test func readFromObjectsWithRivesDefaults() throws {
        let ease = try #require(KeyFrameInterpolator(RiveObject(typeKey: 28, properties: [64: .float(0.2)])))
        #expect(ease == .cubicEase(CubicEaseInterpolator(x1: 0.42, y1: 0.2, x2: 0.58, y2: 1)))
        let value = try #require(KeyFrameInterpolator(RiveObject(typeKey: 138, properties: [66: .float(7)])))
        #expect(value == .cubicValue(CubicValueInterpolator(y2: 7)))
        let elastic = try #require(KeyFrameInterpolator(RiveObject(typeKey: 174, properties: [405: .uint(0)])))
        #expect(elastic == .elastic(ElasticInterpolator(easing: .easeIn, amplitude: 1, period: 1)))
        #expect(KeyFrameInterpolator(RiveObject(typeKey: 174, properties: [405: .uint(9)])) == nil)
        #expect(KeyFrameInterpolator(RiveObject(typeKey: 30)) == nil)
        #expect(elastic.transformValue(from: 0, to: 10, factor: 1) == 10 * elastic.transform(1))
    }
}
