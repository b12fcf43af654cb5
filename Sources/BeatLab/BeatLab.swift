/// Beat-analysis evaluation tools (corpus, metrics, aubio runner) live in this module.
public enum BeatLab {}
