"""What every request and answer goes through: the guards on a client's share of the server
(:mod:`.guards`), the answers' security headers and the access log (:mod:`.headers`), and
the refusals' shape (:mod:`.errors`)."""
