import FoundationEssentials
import SwitchyardBus

/// Turns a complete 2xx response into the value `NAME/loaded` carries.
enum ResponseDecoding {
    /// The body parsed as JSON (an empty body is `null`), narrowed to the dotted `extract`
    /// path when one is given.
    ///
    /// - Throws: a ``FetchFailure`` of kind `decode` (with `attempts` as given) when the body is
    ///   not JSON or has nothing at the path.
    static func value(of response: HTTPResponse, extract: String?, attempts: Int) throws(FetchFailure) -> JSON {
        let document: JSON
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            document = .null
        } else {
            do {
                document = try JSON(parsingInput: response.body, repeatedNames: .lastWins)
            } catch {
                throw FetchFailure(
                    kind: .decode, status: response.status,
                    message: "the response is not valid JSON (\(error))", attempts: attempts)
            }
        }
        guard let extract else { return document }
        guard let value = document.value(atPath: extract) else {
            throw FetchFailure(
                kind: .decode, status: response.status,
                message: "the response has no value at \"\(extract)\" (extract)", attempts: attempts)
        }
        return value
    }

    /// `HTTP 503 Service Unavailable`.
    static func statusLine(_ status: Int) -> String {
        HTTPReasonPhrase.of(status).map { "HTTP \(status) \($0)" } ?? "HTTP \(status)"
    }
}
