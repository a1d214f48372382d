import Foundation

/// The examples of protocol/SCHEMA.md, as the document shows them: the tests read the schema
/// format's examples from the document itself, so the document cannot drift from the code.
public enum SchemaDocument {
    /// A section or its example is missing from the document.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The first ```` ```json ```` block after the heading line `heading` (with its `#`s).
    public static func example(under heading: String) throws -> String {
        let text = try String(contentsOfFile: DaemonProcess.packageRoot + "/protocol/SCHEMA.md", encoding: .utf8)
        guard let section = text.components(separatedBy: heading + "\n").dropFirst().first else {
            throw Missing(description: "SCHEMA.md has no heading '\(heading)'")
        }
        guard let block = section.components(separatedBy: "```json\n").dropFirst().first,
            let example = block.components(separatedBy: "```").first
        else {
            throw Missing(description: "SCHEMA.md has no JSON example under '\(heading)'")
        }
        return example
    }
}
