import SwitchyardBus
import Testing

@testable import NetworkFetchPlugin

/// JSON body templates: typed placeholders, text placeholders and literal values.
struct BodyTemplateTests {
    private let scope = TemplateScope(
        payload: ["lat": 52.52, "tags": ["a"], "who": ["name": "Ada"], "nothing": nil, "city": "Berlin"],
        state: ["limit": 5])

    /// A string that is only a placeholder takes the value with its type; other strings stay
    /// text; everything else is copied.
    @Test func keepsTypes() throws {
        let template = try BodyTemplate(parsing: [
            "lat": "{payload.lat}", "tags": "{payload.tags}", "who": "{payload.who}", "nothing": "{payload.nothing}",
            "label": "in {payload.city}", "limit": "{state.limit}", "fixed": [true, 1, "x", nil], "escaped": "{{x}}",
        ])
        #expect(
            try template.render(in: scope) == [
                "lat": 52.52, "tags": ["a"], "who": ["name": "Ada"], "nothing": nil, "label": "in Berlin", "limit": 5,
                "fixed": [true, 1, "x", nil], "escaped": "{x}",
            ])
    }

    /// A missing value is an error naming the path, also deep inside arrays.
    @Test func missingValueNamesThePath() throws {
        let template = try BodyTemplate(parsing: ["items": [["id": "{payload.id}"]]])
        #expect(throws: TemplateValueError.missing(PlaceholderPath(root: .payload, steps: ["id"]))) {
            try template.render(in: scope)
        }
    }

    /// A malformed string is reported with its location in the body.
    @Test(arguments: [
        (["items": [["id": "{payload.id"]]] as JSON, "items[0].id"),
        (["a": ["b": "{nope}"]] as JSON, "a.b"),
        (JSON.string("{x}"), ""),
    ])
    func malformedStringNamesItsLocation(body: JSON, location: String) {
        #expect(throws: BodyTemplateError.self) { try BodyTemplate(parsing: body) }
        do {
            _ = try BodyTemplate(parsing: body)
        } catch {
            #expect(error.location == location)
        }
    }
}
