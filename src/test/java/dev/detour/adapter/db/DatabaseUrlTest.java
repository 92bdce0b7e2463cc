package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** D-1: every pooled connection carries the connect, socket and statement bounds, unless the URL sets its own. */
class DatabaseUrlTest {

    @Test
    void aPlainUrlGetsEveryBound() {
        assertEquals("jdbc:mariadb://127.0.0.1:3306/detour?connectTimeout=3000&socketTimeout=30000"
                + "&sessionVariables=max_statement_time=25", Database.bounded("jdbc:mariadb://127.0.0.1:3306/detour"));
    }

    @Test
    void boundsTheOperatorSetAreKept() {
        assertEquals("jdbc:mariadb://db/detour?socketTimeout=90000&connectTimeout=3000"
                        + "&sessionVariables=max_statement_time=25",
                Database.bounded("jdbc:mariadb://db/detour?socketTimeout=90000"));
        assertEquals("jdbc:mariadb://db/detour?sessionVariables=max_statement_time=60&connectTimeout=3000"
                        + "&socketTimeout=30000",
                Database.bounded("jdbc:mariadb://db/detour?sessionVariables=max_statement_time=60"));
    }

    @Test
    void aMultiHostUrlTriesEachHostOnceWhenAllAreDownInsteadOfTheDriversHundredAndTwentyTimes() {
        assertEquals("jdbc:mariadb:sequential://n1:3306,n2:3306,n3:3306/detour?connectTimeout=3000&socketTimeout=30000"
                        + "&sessionVariables=max_statement_time=25&retriesAllDown=3",
                Database.bounded("jdbc:mariadb:sequential://n1:3306,n2:3306,n3:3306/detour"));
        assertEquals("jdbc:mariadb:sequential://n1,n2/detour?retriesAllDown=10&connectTimeout=3000&socketTimeout=30000"
                        + "&sessionVariables=max_statement_time=25",
                Database.bounded("jdbc:mariadb:sequential://n1,n2/detour?retriesAllDown=10"), "the operator's own kept");
    }
}
