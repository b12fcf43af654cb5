import EntrainAddressSpace

/// The "Ambient engine" section of osc-schema.md: what to know before the key table (the table
/// itself comes from the family's descriptors, like every family's).
extension AmbientFamily {
    public var schemaTitle: String { "Ambient engine" }
    public var commands: [CommandDescriptor] { AmbientController.declarations.map(\.descriptor) }
    public var schemaIntroduction: String {
        """
        The ambient engine (on `ambient_L`/`ambient_R`) plays the Kessho web app's state: its 403 keys are
        reachable at `/ambient/KEY`, with the web's names, ranges and steps. A value is checked by its
        kind and refused with `/error` when it does not fit (out of range is never clamped); numbers are
        then snapped to the key's step, as the web's sliders snap them. Setting a key takes effect at
        once (the harmony reads it at the next 16 s phrase, as on the web); in a time-tagged bundle it
        lands on the tag's frame, like every address. A glide argument slides numbers there (other
        keys switch at once). Every key is stored, fed back and hashed into the phrase seed, as
        on the web, even those the engine does not render yet (see the status column). A key the
        loaded preset has in `walk` mode keeps wandering inside its range (10 Hz), as the web's UI
        moves it, so a value set there lasts until the next step.

        - **Numbers** take `i`, `h`, `f` or `d`. `rootNote` takes an integer 0–11 (C=0 … B=11).
        - **Toggles** take `T`/`F`, 1/0 (as a number) or the strings `on`, `off`, `true`, `false`.
        - **Choices** take the option's name; `manualScale` takes one of the 11 scale names.
        - **`/ambient/KEY/norm f`** (ranged numbers, toggles, choices): 0…1 onto the range (linear,
          then snapped to the step), toggles switch at 0.5, choices in equal bands; outside 0…1 is
          clamped, as for the other /norm addresses.
        - **Query**: no argument replies on the same address (on `/norm`, as 0…1).
        - **Feedback**: subscribers get every key on `/osc/subscribe`, then each change (from OSC, a
          preset's crossfade, a session stage) on `/ambient/KEY` and `/ambient/KEY/norm`, at most 30
          times a second.

        A session stage may also carry `"ambient": {"preset": NAME, "crossfade": seconds}`: at the stage's
        first frame (within one control period) the engine glides to that preset, starting if it is
        silent. A missing or unreadable preset is a load-time error at the block's line and column.
        Single keys are set from a stage's `"set"` block, like any address (see sessions/README.md).
        The `what` column of the keys' table says whether the engine renders the key yet.
        """
    }
}
