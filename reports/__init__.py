"""reports: the ``tacc`` command line and, later, bound-versus-empirical reports."""
