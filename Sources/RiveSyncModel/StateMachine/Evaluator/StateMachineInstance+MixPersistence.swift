import RiveSyncJSON

extension StateMachineInstance {
    /// A layer's mix as strict JSON: the state left, the time of its animation (and of the
    /// one held at its exit time), the mix it was left at, whether it is paused, and the reset
    /// values (component, key and a number or a colour).
    static func json(_ mixing: LayerMix) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("from", .number(Double(mixing.from))), ("mixFrom", .number(Double(mixing.mixFrom))),
            ("holdsFrom", .bool(mixing.holdsFrom)),
        ]
        if let timeline = mixing.timeline { members.append(("time", .number(Double(timeline.time)))) }
        if let hold = mixing.hold { members.append(("hold", .number(Double(hold.time)))) }
        if let reset = mixing.reset {
            let values: [JSONValue] = reset.values.compactMap { item in
                let place: [(String, JSONValue)] = [
                    ("component", .number(Double(item.property.component))), ("key", .number(Double(item.property.property))),
                ]
                switch item.value {
                case .double(let number): return .object(place + [("number", .number(Double(number)))])
                case .color(let color): return .object(place + [("color", .number(Double(color)))])
                default: return nil
                }
            }
            members.append(("reset", .array(values)))
        }
        return .object(members)
    }

    /// Restores what `json(_: LayerMix)` wrote for layer `index`.
    func mix(_ json: JSONValue, layer index: Int) throws(StateMachinePersistenceError) -> LayerMix {
        let states = definition.layers[index].states
        let from = try Self.int(json["from"], "mixing.from")
        guard states.indices.contains(from) else { throw .mismatch("layer \(index) has no state \(from)") }
        var mixing = LayerMix(
            from: from, timeline: nil, mixFrom: Float(try Self.number(json["mixFrom"], "mixing.mixFrom")),
            holdsFrom: try Self.bool(json["holdsFrom"], "mixing.holdsFrom"), reset: nil, hold: nil)
        let timeline = states[from].animation.flatMap {
            definition.timelines.indices.contains($0) ? LinearAnimationInstance(definition.timelines[$0]) : nil
        }
        for (member, name) in [("time", "timeline"), ("hold", "hold")] {
            guard let time = json[member] else { continue }
            guard var instance = timeline else { throw .mismatch("layer \(index)'s state \(from) plays no animation") }
            instance.setTime(Float(try Self.number(time, "mixing.\(member)")))
            if name == "timeline" { mixing.timeline = instance } else { mixing.hold = instance }
        }
        if let reset = json["reset"] {
            var values: [(property: AnimatedProperty, value: AnimatedValue)] = []
            for item in try Self.array(reset, "mixing.reset") {
                let property = AnimatedProperty(
                    component: UInt32(clamping: try Self.int(item["component"], "reset.component")),
                    property: try Self.int(item["key"], "reset.key"))
                if let number = item["number"]?.numberValue {
                    values.append((property, .double(Float(number))))
                } else if let color = item["color"]?.numberValue, color >= 0, color <= Double(UInt32.max) {
                    values.append((property, .color(UInt32(color))))
                } else {
                    throw .invalidMember("reset.value")
                }
            }
            mixing.reset = AnimationReset(values: values)
        }
        return mixing
    }
}
