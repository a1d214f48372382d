import Foundation

/// What a connection's URL says it is for (protocol/PROTOCOL.md §2, steering):
/// `?target=NAME` (the room it will use) or `?file=NAME` (the file it will create its target
/// in), percent-encoded. With several transport threads the daemon serves the connection on
/// the thread of that target's or file's worker, so its requests and batches cross no thread.
/// A hint names nothing the daemon must know: an unknown name, or none, is no hint.
struct ConnectionHint {
    var target: String?
    var file: String?

    /// The hint in a request target (`/path?query`); empty when it has none.
    init(requestTarget: String) {
        let items = URLComponents(string: requestTarget)?.queryItems ?? []
        target = items.first { $0.name == "target" }?.value
        file = items.first { $0.name == "file" }?.value
    }

    /// The worker of the hinted target, else of the hinted file; nil when neither is placed.
    func worker(in directory: Directory) -> Int? {
        if let target, let worker = directory.target(target)?.worker { return worker }
        if let file, let worker = directory.file(file)?.worker { return worker }
        return nil
    }
}
