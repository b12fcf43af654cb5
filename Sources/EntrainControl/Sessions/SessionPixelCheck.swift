import EntrainAddressSpace

extension AddressSpace {
    /// A session's `"set"` entries for pixel outputs this client's rig does not have: refused when
    /// the session loads, not when the stage comes (a file reads `/pixels/NAME/…` for any NAME).
    public func checkPixelOutputs(of session: Session, file: String) throws {
        let outputs = families.compactMap { ($0 as? PixelFamily)?.spec.name }
        var problems: [SessionProblem] = []
        for (number, stage) in session.stages.enumerated() {
            for set in stage.sets where set.address.hasPrefix(PixelAddresses.prefix) && lookup(set.address) == nil {
                let rig = outputs.isEmpty ? "no --pixels rig" : "the rig's outputs: " + outputs.joined(separator: ", ")
                problems.append(SessionProblem(file: file, line: 0, column: 0,
                                               message: "stage \(number + 1): \"set\": \(set.address): no such pixel output (\(rig))", isWarning: false))
            }
        }
        if !problems.isEmpty { throw SessionLoadError(problems: problems) }
    }
}
