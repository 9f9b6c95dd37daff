import FoundationEssentials

/// One header of a request, in the order the settings list it.
struct HTTPHeader: Sendable, Hashable {
    var name: String
    var value: String
}

/// A request with every placeholder filled, ready to send.
struct PreparedRequest: Sendable, Hashable {
    /// An upper-case method such as `GET`.
    var method: String
    /// An absolute `http` or `https` URL.
    var url: URL
    var headers: [HTTPHeader]
    /// The serialized JSON body, or `nil` for none.
    var body: [UInt8]?

    /// The first header named `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Why a request could not be built for one trigger; nothing was sent.
struct RequestPreparationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The placeholder path at fault, when a placeholder is.
    let path: String?
    let description: String

    init(_ error: TemplateValueError, in part: String) {
        path = error.path
        description = "\(part): \(error.description)"
    }

    private init(path: String?, description: String) {
        self.path = path
        self.description = description
    }

    static func invalidURL(_ redacted: String) -> RequestPreparationError {
        RequestPreparationError(path: nil, description: "url: \"\(redacted)\" is not an absolute http or https URL once filled")
    }

    static func invalidHeaderValue(_ name: String) -> RequestPreparationError {
        RequestPreparationError(path: nil, description: "headers.\(name): the value contains a line break or NUL once filled")
    }
}
