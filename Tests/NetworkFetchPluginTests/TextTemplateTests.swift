import SwitchyardBus
import Testing

@testable import NetworkFetchPlugin

/// Parsing and filling text templates with `{payload.…}` and `{state.…}` placeholders.
struct TextTemplateTests {
    private let scope = TemplateScope(
        payload: ["city": "Berlin", "lat": 52.52, "count": 3, "ok": false, "nothing": nil, "list": [1, 2], "nested": ["a": ["b": "deep"]]],
        state: ["config": ["limit": 5], "places": ["value": [["name": "first"]]]])

    /// Valid templates render to the expected text.
    @Test(arguments: [
        ("plain text", "plain text"),
        ("{payload.city}", "Berlin"),
        ("lat={payload.lat}&n={payload.count}&ok={payload.ok}", "lat=52.52&n=3&ok=false"),
        ("{payload.nested.a.b}!", "deep!"),
        ("{payload.list.1}", "2"),
        ("limit {state.config.limit}", "limit 5"),
        ("{state.places.value.0.name}", "first"),
        ("{{literal}} and }}", "{literal} and }"),
        ("{{{payload.city}}}", "{Berlin}"),
        ("", ""),
    ])
    func renders(template: String, expected: String) throws {
        #expect(try TextTemplate(parsing: template).render(in: scope) == expected)
    }

    /// Malformed templates are refused with a reason naming the problem; text that does not
    /// read like a placeholder (it may be a secret from the environment) is located, not quoted.
    @Test(arguments: [
        ("{payload.city", "a \"{\" at character 1 is never closed (write {{ for a literal brace)"),
        ("x}", "a lone \"}\" at character 2 (write }} for a literal brace)"),
        ("{paylod.city}", "unknown placeholder {paylod.city}: use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"),
        ("{payload..city}", "unknown placeholder {payload..city}: use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"),
        ("{state.}", "unknown placeholder {state.}: use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"),
        ("{}", "unknown placeholder {}: use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"),
        ("{a{payload.x}}", "unknown placeholder at character 1: use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"),
        ("Bearer {s3cr3t/t0ken+}", "unknown placeholder at character 8: use {payload.PATH} or {state.PATH} (write {{ and }} for literal braces)"),
    ])
    func refusesMalformed(template: String, reason: String) {
        #expect(throws: TemplateSyntaxError(description: reason)) { try TextTemplate(parsing: template) }
    }

    /// A missing, `null`, array or object value is an error naming the path.
    @Test(arguments: [
        ("{payload.missing}", "payload.missing", "placeholder {payload.missing} has no value"),
        ("{payload.city.name}", "payload.city.name", "placeholder {payload.city.name} has no value"),
        ("{payload.list.7}", "payload.list.7", "placeholder {payload.list.7} has no value"),
        ("{payload.nothing}", "payload.nothing", "placeholder {payload.nothing} is null"),
        ("{payload.list}", "payload.list", "placeholder {payload.list} is an array; only strings, numbers and booleans fit inside text"),
        ("{state.config}", "state.config", "placeholder {state.config} is an object; only strings, numbers and booleans fit inside text"),
    ])
    func refusesUnusableValues(template: String, path: String, message: String) throws {
        let parsed = try TextTemplate(parsing: template)
        #expect(throws: TemplateValueError(path: path, description: message)) { try parsed.render(in: scope) }
    }

    /// Only placeholder values pass through the encoder, never the literal text.
    @Test func encodesOnlyValues() throws {
        let template = try TextTemplate(parsing: "a b/{payload.city}")
        #expect(try template.render(in: scope) { "<\($0)>" } == "a b/<Berlin>")
    }

    /// A template that is exactly one placeholder is recognised, so bodies can keep the type.
    @Test func recognisesASolePlaceholder() throws {
        #expect(try TextTemplate(parsing: "{payload.list}").solePlaceholder == PlaceholderPath(root: .payload, steps: ["list"]))
        #expect(try TextTemplate(parsing: "{payload}").solePlaceholder == PlaceholderPath(root: .payload, steps: []))
        #expect(try TextTemplate(parsing: " {payload.list}").solePlaceholder == nil)
        #expect(try TextTemplate(parsing: "{payload.a}{payload.b}").placeholders.count == 2)
    }
}

/// Percent-encoding of values placed into URLs.
struct PercentEncodingTests {
    /// Everything but the RFC 3986 unreserved characters is encoded, as UTF-8.
    @Test(arguments: [
        ("Berlin", "Berlin"),
        ("A-z_0.9~", "A-z_0.9~"),
        ("São Paulo & co", "S%C3%A3o%20Paulo%20%26%20co"),
        ("a/b?c=d#e%f+g", "a%2Fb%3Fc%3Dd%23e%25f%2Bg"),
        ("日本", "%E6%97%A5%E6%9C%AC"),
        ("", ""),
    ])
    func encodes(raw: String, encoded: String) {
        #expect(PercentEncoding.encode(raw) == encoded)
    }
}
