import SwitchyardBus

/// Makes sure the stream and the bridge's durable consumer exist after each connect — a
/// state machine without I/O that the bridge feeds with the JetStream API's replies.
///
/// It asks for the stream's info and creates the stream only when the server says it does
/// not exist, so an existing stream (perhaps configured by an operator) is never changed;
/// the same for the consumer. A stream that does not capture the subjects the bridge
/// publishes, or a consumer whose filter differs from the configured one, is a warning.
struct JetStreamSetup: Sendable {
    /// What to do next.
    enum Step: Sendable, Hashable {
        /// Send a request: `$JS.API.…` with this JSON body (empty for an info request).
        case request(subject: String, body: [UInt8])
        /// Both exist; the warnings say what does not match the configuration.
        case done(warnings: [String])
        /// The setup cannot finish on this connection.
        case failed(String)
    }

    private enum Stage: Sendable, Hashable {
        case streamInfo, streamCreate, consumerInfo, consumerCreate, finished
    }

    let stream: StreamConfiguration
    let consumer: ConsumerConfiguration?
    /// Subjects the bridge publishes to, which the stream must capture.
    let published: [SubjectPattern]

    private var stage = Stage.streamInfo
    private var warnings: [String] = []

    /// Creates the machine; `consumer` is `nil` for a bridge that only publishes.
    init(stream: StreamConfiguration, consumer: ConsumerConfiguration?, published: [SubjectPattern]) {
        self.stream = stream
        self.consumer = consumer
        self.published = published
    }

    /// The first request.
    mutating func start() -> Step {
        stage = .streamInfo
        warnings = []
        return .request(subject: "$JS.API.STREAM.INFO.\(stream.name)", body: [])
    }

    /// Handles the reply to the last request.
    mutating func handle(_ reply: JetStreamReply) -> Step {
        if case .noResponders = reply {
            stage = .finished
            return .failed("JetStream is not enabled on the server (no responders for its API; start nats-server with -js)")
        }
        switch (stage, reply) {
        case (.streamInfo, .failure(let error)) where error.errorCode == JetStreamAPIError.streamNotFound:
            stage = .streamCreate
            var body: [UInt8] = []
            stream.json.serialize(into: &body)
            return .request(subject: "$JS.API.STREAM.CREATE.\(stream.name)", body: body)
        case (.streamInfo, .success(let info)), (.streamCreate, .success(let info)):
            checkCoverage(info["config"]?["subjects"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            guard let consumer else { return finish() }
            stage = .consumerInfo
            return .request(subject: "$JS.API.CONSUMER.INFO.\(stream.name).\(consumer.durable)", body: [])
        case (.consumerInfo, .failure(let error)) where error.errorCode == JetStreamAPIError.consumerNotFound:
            guard let consumer else { return finish() }
            stage = .consumerCreate
            var body: [UInt8] = []
            consumer.json(stream: stream.name).serialize(into: &body)
            return .request(subject: "$JS.API.CONSUMER.DURABLE.CREATE.\(stream.name).\(consumer.durable)", body: body)
        case (.consumerInfo, .success(let info)):
            checkConsumer(info["config"] ?? .null)
            return finish()
        case (.consumerCreate, .success):
            return finish()
        case (.streamInfo, .failure(let error)), (.streamCreate, .failure(let error)):
            stage = .finished
            return .failed("stream \"\(stream.name)\": \(error.description) (error \(error.errorCode))")
        case (.consumerInfo, .failure(let error)), (.consumerCreate, .failure(let error)):
            stage = .finished
            return .failed("consumer \"\(consumer?.durable ?? "")\" of stream \"\(stream.name)\": \(error.description) (error \(error.errorCode))")
        case (_, .noResponders), (.finished, _):
            return .failed("an unexpected JetStream reply")
        }
    }

    private mutating func finish() -> Step {
        stage = .finished
        return .done(warnings: warnings)
    }

    private mutating func checkCoverage(_ subjects: [String]) {
        let captured = subjects.compactMap { try? SubjectPattern($0) }
        for subject in published where !captured.contains(where: { $0.covers(subject) }) {
            warnings.append("stream \"\(stream.name)\" captures \(subjects) but not \"\(subject)\"; the server will refuse those actions")
        }
    }

    private mutating func checkConsumer(_ config: JSON) {
        guard let consumer else { return }
        let existing = config["filter_subject"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        if existing != consumer.filterSubject {
            warnings.append("consumer \"\(consumer.durable)\" exists with filter \(existing.map { "\"\($0)\"" } ?? "none") instead of \(consumer.filterSubject.map { "\"\($0)\"" } ?? "none"); delete it to change it")
        }
    }
}
