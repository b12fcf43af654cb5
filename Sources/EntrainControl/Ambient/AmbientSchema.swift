import EntrainAddressSpace

/// The "Ambient engine" section of osc-schema.md: what to know before the key table (the table
/// itself comes from the family's descriptors, like every family's).
extension AmbientFamily {
    public var schemaTitle: String { "Ambient engine" }
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

        | address | arguments | what it does | reply |
        |---|---|---|---|
        | `/ambient/play` | `[f:fade]` or a button | start the engine (fade-in in seconds, default 0.05; pads keep their own attack). The phrase grid follows UTC: the seed bucket is frozen at this moment. As a button: `T` or a number presses (the number is the fade), `F` is a release and is ignored | — |
        | `/ambient/stop` | `[f:fade]` or a button | fade out (default 2 s, at most 600), then stop computing; in a bundle, from the time tag's frame. `T` presses with the default fade, `F` is ignored | — |
        | `/ambient/seed` | `[i\\|h:seed]` | the seed of what the web leaves to `Math.random` (filter walk, walking sliders, grain noise, ocean), ≥ 0; takes effect at the next `/ambient/play`. No argument: a query | `/ambient/seed h` |
        | `/ambient/status` | none | a snapshot | `/ambient/status i:playing s:bucket h:seed i:drift_step f…:chord` (the sounding chord's frequencies in Hz, A4 = 432 Hz; none before the first play) |
        | `/ambient/preset/load` | `s:name [f:crossfade]` | load a Kessho preset (the web's JSON) from `./presets/ambient`, `$XDG_DATA_HOME/entrain/ambient` or the installed `PREFIX/share/entrain/ambient` by name, with or without `.json` (paths leading outside are refused), and glide there over `crossfade` seconds (default 0; a glide needs the engine playing). The drift goes home; `reverbQuality` is kept (a listener's preference on the web). Does not start the engine | one `/ambient/preset/warning s:name s:warning` per loader warning |
        | `/ambient/preset/save` | `s:name` | save the current state in the web's format as `$XDG_DATA_HOME/entrain/ambient/NAME.json`, atomically, with the last loaded preset's slider ranges and modes. Names: 1–64 letters, digits, spaces, `- _ . ( )` | — |

        A session stage may also carry `"ambient": {"preset": NAME, "crossfade": seconds}`: at the stage's
        first frame (within one control period) the engine glides to that preset, starting if it is
        silent. A missing or unreadable preset is a load-time error at the block's line and column.
        Single keys are set from a stage's `"set"` block, like any address (see sessions/README.md).
        The `what` column says whether the engine renders the key yet.
        """
    }
}
