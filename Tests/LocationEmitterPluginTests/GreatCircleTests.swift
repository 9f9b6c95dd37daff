@testable import LocationEmitterPlugin
import Testing

/// Great-circle distances against values worked out by hand.
struct GreatCircleTests {
    private static let metresPerDegree = GreatCircle.earthRadius * .pi / 180  // 111 195.080 m

    /// Closed forms: along the equator and a meridian, across 180°, over the poles.
    @Test(arguments: [
        ((0.0, 179.5), (0.0, -179.5), 111_195.080),
        ((0.0, -0.5), (0.0, 0.5), 111_195.080),
        ((-22.9068, -43.1729), (-22.9078, -43.1729), 111.195),
        ((89.9, 0.0), (89.9, 180.0), 22_239.016),
        ((-89.9, -90.0), (-89.9, 90.0), 22_239.016),
        ((10.0, 20.0), (10.0, 20.0), 0.0),
    ] as [((Double, Double), (Double, Double), Double)])
    func closedForms(from: (Double, Double), to: (Double, Double), metres: Double) {
        // Closed forms: along the equator and a meridian one degree (or a fraction) is R·Δ in
        // radians; across the antimeridian only the 1° between 179.5°E and 179.5°W counts; over
        // the pole, 89.9°N 0° to 89.9°N 180° is 0.2° of arc.
        let distance = GreatCircle.distance(
            Coordinate(latitude: from.0, longitude: from.1), Coordinate(latitude: to.0, longitude: to.1))
        #expect(abs(distance - metres) < 0.001)
        let back = GreatCircle.distance(
            Coordinate(latitude: to.0, longitude: to.1), Coordinate(latitude: from.0, longitude: from.1))
        #expect(abs(back - distance) < 1e-9)
    }

    /// A short hop across 180° at 16.5°S is R · cos φ · Δλ = 2 132.32 m.
    @Test func antimeridianInTheSouth() {
        // A short hop across 180° at 16.5°S: 0.02° of longitude along the parallel,
        // R · cos(16.5°) · 0.02° = 6 371 008.8 × 0.958 820 × 3.490 66e-4 = 2 132.32 m.
        let distance = GreatCircle.distance(
            Coordinate(latitude: -16.5, longitude: 179.99), Coordinate(latitude: -16.5, longitude: -179.99))
        #expect(abs(distance - 2_132.32) < 0.01)
    }

    /// Long southern and western distances match an independent atan2 computation.
    @Test(arguments: [
        ((-34.6037, -58.3816), (-33.4489, -70.6693), 1_138_924.424),
        ((-33.8688, 151.2093), (-34.6037, -58.3816), 11_801_082.426),
    ] as [((Double, Double), (Double, Double), Double)])
    func longDistances(from: (Double, Double), to: (Double, Double), metres: Double) {
        // Long southern and western distances, checked against the atan2 (Vincenty sphere) form
        // computed independently: Buenos Aires–Santiago and Sydney–Buenos Aires.
        let distance = GreatCircle.distance(
            Coordinate(latitude: from.0, longitude: from.1), Coordinate(latitude: to.0, longitude: to.1))
        #expect(abs(distance - metres) < 0.01)
    }

    /// One degree of longitude is the constant the closed forms use.
    @Test func metresPerDegree() {
        #expect(abs(Self.metresPerDegree - 111_195.080) < 0.001)
    }
}
