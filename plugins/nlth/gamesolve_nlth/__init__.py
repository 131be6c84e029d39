"""No-limit Texas hold'em plugin for gamesolve."""
