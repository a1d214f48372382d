import Foundation
import XCTest

/// The `.riv` fixtures in `../shared/fixtures/riv/`, read in place.
///
/// When the directory is missing the tests skip, unless `RIVESYNC_REQUIRE_FIXTURES=1` (set in CI)
/// makes them fail.
enum Fixtures {
    /// `<package root>/../shared/fixtures/riv`.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/riv")

    /// The 24 fixture files named in `RIV-FIXTURES.md`.
    static let names = [
        "viewmodel_runtime_file", "library_data_enum_test", "library_view_model_test", "global_viewmodels_test",
        "data_binding_test_2", "shared_viewmodel_instance", "list_to_path", "stateful_list_props", "scripted_enum",
        "scripted_string", "scripted_boolean", "scripted_color", "data_bind_blob_test", "data_bind_font_test",
        "data_binding_images_test", "data_binding_artboards_test", "component_stateful_vm_instance",
        "rebind_with_nested_viewmodel", "bidirectional_precedence", "vm_listener_fire_event",
        "transition_index_condition", "viewmodel_list_trigger", "list_items", "inventory_demo_test_v2",
    ]

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of `name.riv`; skips (or fails, when fixtures are required) if it is missing.
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = directory.appendingPathComponent(name + ".riv")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let message = "fixture \(url.path) is missing (the ../shared checkout is absent)"
            if ProcessInfo.processInfo.environment["RIVESYNC_REQUIRE_FIXTURES"] == "1" {
                throw Missing(description: message + "; RIVESYNC_REQUIRE_FIXTURES=1 requires it")
            }
            throw XCTSkip(message + "; set RIVESYNC_REQUIRE_FIXTURES=1 to fail instead")
        }
        return [UInt8](data)
    }
}
