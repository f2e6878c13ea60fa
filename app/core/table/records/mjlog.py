def read_mjlog(t):
    raise NotImplementedError


def write_mjlog(e):
    raise NotImplementedError
