import SwitchyardBus
import Testing

struct JSONTests {
    /// A dotted path walks objects and array indices and stops at a missing step.
    @Test func pathLookup() {
        let value: JSON = ["places": ["value": [["name": "Café"]]]]
        #expect(value.value(atPath: "places.value.0.name") == "Café")
        #expect(value.value(atPath: "places.value.1.name") == nil)
        #expect(value.value(atPath: "") == value)
    }

    /// An integral number reads as an Int; a fractional one does not.
    @Test func numericAccessors() {
        #expect(JSON.number(3).intValue == 3)
        #expect(JSON.number(3.5).intValue == nil)
        #expect(JSON.integer(7).doubleValue == 7)
    }
}
